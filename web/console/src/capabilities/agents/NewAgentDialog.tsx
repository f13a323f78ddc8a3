import { type FormEvent, useState } from 'react';
import { Button, Dialog, DialogTrigger, Form, Heading, Input, Label, Modal, TextField } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { ChatModelSelect } from './ChatModelSelect.tsx';
import { useAgentText } from './messages.ts';

/** "New agent": a name and a chat model; created, its editor opens (to give it knowledge and instructions). */
export function NewAgentDialog() {
  const t = useAgentText();
  return (
    <DialogTrigger>
      <Button className="react-aria-Button primary">{t('newAgent')}</Button>
      <Modal isDismissable>
        <Dialog>{({ close }) => <NewAgentForm close={close} />}</Dialog>
      </Modal>
    </DialogTrigger>
  );
}

function NewAgentForm({ close }: { close(): void }) {
  const t = useAgentText();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [model, setModel] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!model) return;
    setPending(true);
    setError(null);
    try {
      const { data } = await api.POST('/v1/agents', { body: { name: name.trim(), model } });
      close();
      void navigate(`/agents/${encodeURIComponent(data!.id)}`);
    } catch (failure) {
      setError(failure);
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="stack">
      <Heading slot="title">{t('newAgent')}</Heading>
      <TextField isRequired autoFocus value={name} onChange={setName} maxLength={200}>
        <Label>{t('name')}</Label>
        <Input />
      </TextField>
      <ChatModelSelect label={t('model')} value={model} onChange={setModel} />
      <ErrorNote error={error} />
      <div className="dialog-actions">
        <Button onPress={close}>{t('cancel')}</Button>
        <Button type="submit" className="react-aria-Button primary" isDisabled={pending || !model}>
          {t('create')}
        </Button>
      </div>
    </Form>
  );
}
