import { type FormEvent, useState } from 'react';
import { Button, Dialog, DialogTrigger, Form, Heading, Input, Label, Modal, TextArea, TextField } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { LanguageSelect } from './LanguageSelect.tsx';
import { useKnowledgeBaseText } from './messages.ts';

/** "New knowledge base": name, description, language; created, it opens (to upload into it). */
export function NewKnowledgeBaseDialog() {
  const t = useKnowledgeBaseText();
  return (
    <DialogTrigger>
      <Button className="react-aria-Button primary">{t('newKnowledgeBase')}</Button>
      <Modal isDismissable>
        <Dialog>{({ close }) => <NewKnowledgeBaseForm close={close} />}</Dialog>
      </Modal>
    </DialogTrigger>
  );
}

function NewKnowledgeBaseForm({ close }: { close(): void }) {
  const t = useKnowledgeBaseText();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [language, setLanguage] = useState('auto');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const { data } = await api.POST('/v1/knowledge-bases', { body: { name: name.trim(), description: description.trim() || null, settings: { language } } });
      close();
      void navigate(`/knowledge-bases/${encodeURIComponent(data!.id)}`);
    } catch (failure) {
      setError(failure);
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="stack">
      <Heading slot="title">{t('newKnowledgeBase')}</Heading>
      <TextField isRequired autoFocus value={name} onChange={setName} maxLength={200}>
        <Label>{t('name')}</Label>
        <Input />
      </TextField>
      <TextField value={description} onChange={setDescription}>
        <Label>{t('description')}</Label>
        <TextArea rows={3} />
      </TextField>
      <LanguageSelect value={language} onChange={setLanguage} />
      <ErrorNote error={error} />
      <div className="dialog-actions">
        <Button onPress={close}>{t('cancel')}</Button>
        {/* Not isPending: announced by reference, the button is gone once created (ConfirmButton says more). */}
        <Button type="submit" className="react-aria-Button primary" isDisabled={pending}>
          {t('create')}
        </Button>
      </div>
    </Form>
  );
}
