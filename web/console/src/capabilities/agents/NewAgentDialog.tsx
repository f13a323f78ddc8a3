import { useState } from 'react';
import { Input, Label, TextField } from 'react-aria-components';
import { api } from '../../api/client.ts';
import { CreateDialog, CreateForm } from '../../ui/CreateDialog.tsx';
import { ChatModelSelect } from './ChatModelSelect.tsx';
import { useAgentText } from './messages.ts';

/** "New agent": a name and a chat model; created, its editor opens (to give it knowledge and instructions). */
export function NewAgentDialog() {
  const t = useAgentText();
  return <CreateDialog label={t('newAgent')}>{(close) => <NewAgentForm close={close} />}</CreateDialog>;
}

function NewAgentForm({ close }: { close(): void }) {
  const t = useAgentText();
  const [name, setName] = useState('');
  const [model, setModel] = useState<string | null>(null);

  async function create() {
    const { data } = await api.POST('/v1/agents', { body: { name: name.trim(), model: model! } });
    return { to: `/agents/${encodeURIComponent(data!.id)}` };
  }

  return (
    <CreateForm title={t('newAgent')} cancel={t('cancel')} create={t('create')} close={close} canCreate={model !== null} onCreate={create}>
      <TextField isRequired autoFocus value={name} onChange={setName} maxLength={200}>
        <Label>{t('name')}</Label>
        <Input />
      </TextField>
      <ChatModelSelect label={t('model')} value={model} onChange={setModel} />
    </CreateForm>
  );
}
