import { type FormEvent, useState } from 'react';
import { Button, Dialog, DialogTrigger, Form, Heading, Input, Label, Modal, Radio, RadioGroup, Text, TextField } from 'react-aria-components';
import { type Answer, api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { KnowledgeBaseChecks } from '../../ui/KnowledgeBaseChecks.tsx';
import { useApiKeyText } from './messages.ts';

export type CreatedKey = Answer<'/v1/api-keys', 'post'>;
type Scope = CreatedKey['scopes'][number];

/** "New API key": name, scope, knowledge bases, expiry; the created key (with its secret) goes to `onCreated`. */
export function NewApiKeyDialog({ onCreated }: { onCreated(key: CreatedKey): void }) {
  const t = useApiKeyText();
  return (
    <DialogTrigger>
      <Button className="react-aria-Button primary">{t('newKey')}</Button>
      <Modal isDismissable>
        <Dialog>{({ close }) => <NewApiKeyForm close={close} onCreated={onCreated} />}</Dialog>
      </Modal>
    </DialogTrigger>
  );
}

function NewApiKeyForm({ close, onCreated }: { close(): void; onCreated(key: CreatedKey): void }) {
  const t = useApiKeyText();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Scope>('read');
  const [limited, setLimited] = useState(false);
  const [kbIds, setKbIds] = useState<string[]>([]);
  const [expiry, setExpiry] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (limited && kbIds.length === 0) return setError(new Error(t('chooseSome')));
    setPending(true);
    setError(null);
    try {
      const body = {
        name: name.trim(),
        scopes: [scope],
        knowledge_base_ids: limited ? kbIds : null,
        // A date means "through that day": the key stops working when the day ends (UTC).
        expires_at: expiry ? `${expiry}T23:59:59Z` : null,
      };
      const { data } = await api.POST('/v1/api-keys', { body });
      close();
      onCreated(data!);
    } catch (failure) {
      setError(failure);
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="stack">
      <Heading slot="title">{t('newKey')}</Heading>
      <TextField isRequired autoFocus value={name} onChange={setName} maxLength={200}>
        <Label>{t('name')}</Label>
        <Input />
      </TextField>
      <RadioGroup value={scope} onChange={(value) => setScope(value as Scope)}>
        <Label>{t('scopes')}</Label>
        <Radio value="read">{t('scopeRead')}</Radio>
        <Radio value="write">{t('scopeWrite')}</Radio>
        <Radio value="admin">{t('scopeAdmin')}</Radio>
      </RadioGroup>
      <RadioGroup value={limited ? 'some' : 'all'} onChange={(value) => setLimited(value === 'some')}>
        <Label>{t('limit')}</Label>
        <Radio value="all">{t('limitToAll')}</Radio>
        <Radio value="some">{t('limitToSome')}</Radio>
      </RadioGroup>
      {limited && <KnowledgeBaseChecks label={t('knowledgeBases')} emptyText={t('noKnowledgeBases')} value={kbIds} onChange={setKbIds} />}
      <TextField value={expiry} onChange={setExpiry}>
        <Label>{t('expiry')}</Label>
        <Input type="date" min={new Date().toISOString().slice(0, 10)} />
        <Text slot="description" className="muted">
          {t('expiryHint')}
        </Text>
      </TextField>
      <ErrorNote error={error} />
      <div className="dialog-actions">
        <Button onPress={close}>{t('cancel')}</Button>
        <Button type="submit" className="react-aria-Button primary" isDisabled={pending}>
          {t('create')}
        </Button>
      </div>
    </Form>
  );
}
