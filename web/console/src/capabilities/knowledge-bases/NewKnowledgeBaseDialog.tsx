import { useState } from 'react';
import { Input, Label, TextArea, TextField } from 'react-aria-components';
import { api } from '../../api/client.ts';
import { CreateDialog, CreateForm } from '../../ui/CreateDialog.tsx';
import { LanguageSelect } from './LanguageSelect.tsx';
import { useKnowledgeBaseText } from './messages.ts';

/** "New knowledge base": name, description, language; created, it opens (to upload into it). */
export function NewKnowledgeBaseDialog() {
  const t = useKnowledgeBaseText();
  return <CreateDialog label={t('newKnowledgeBase')}>{(close) => <NewKnowledgeBaseForm close={close} />}</CreateDialog>;
}

function NewKnowledgeBaseForm({ close }: { close(): void }) {
  const t = useKnowledgeBaseText();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [language, setLanguage] = useState('auto');

  async function create() {
    const { data } = await api.POST('/v1/knowledge-bases', { body: { name: name.trim(), description: description.trim() || null, settings: { language } } });
    return { to: `/knowledge-bases/${encodeURIComponent(data!.id)}` };
  }

  return (
    <CreateForm title={t('newKnowledgeBase')} cancel={t('cancel')} create={t('create')} close={close} onCreate={create}>
      <TextField isRequired autoFocus value={name} onChange={setName} maxLength={200}>
        <Label>{t('name')}</Label>
        <Input />
      </TextField>
      <TextField value={description} onChange={setDescription}>
        <Label>{t('description')}</Label>
        <TextArea rows={3} />
      </TextField>
      <LanguageSelect value={language} onChange={setLanguage} />
    </CreateForm>
  );
}
