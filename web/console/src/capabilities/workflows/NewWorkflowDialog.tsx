import { type FormEvent, useState } from 'react';
import { Button, Checkbox, CheckboxGroup, Dialog, DialogTrigger, Form, Heading, Input, Label, Modal, TextField } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { SelectField } from '../../ui/SelectField.tsx';
import { useResource } from '../knowledge-bases/useResource.ts';
import { createWorkflow } from './canvas/workflow-api.ts';
import { useWorkflowText } from './messages.ts';
import { NEW_WORKFLOW } from './new-workflow.ts';

/** What a template needs besides a name: one knowledge base, or (intent routing) several to route between; http-lookup also the URL it asks. */
const TEMPLATES = { blank: 'none', 'knowledge-qa': 'one', 'intent-routing': 'several', 'http-lookup': 'one', 'summarise-each': 'one' } as const;
type Template = keyof typeof TEMPLATES;

/** "New workflow": a blank canvas (created on its first save), or a template created at once through POST /v1/workflows. */
export function NewWorkflowDialog() {
  const t = useWorkflowText();
  return (
    <DialogTrigger>
      <Button className="react-aria-Button primary">{t('newWorkflow')}</Button>
      <Modal isDismissable>
        <Dialog>{({ close }) => <NewWorkflowForm close={close} />}</Dialog>
      </Modal>
    </DialogTrigger>
  );
}

function NewWorkflowForm({ close }: { close(): void }) {
  const t = useWorkflowText();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [template, setTemplate] = useState<Template>('blank');
  const [kbIds, setKbIds] = useState<string[]>([]);
  const [lookupUrl, setLookupUrl] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const { data: kbs } = useResource(async (signal) => (await api.GET('/v1/knowledge-bases', { params: { query: { limit: 100 } }, signal })).data!.data, []);
  const needs = TEMPLATES[template];
  const ready =
    name.trim() !== '' && (needs === 'none' || (needs === 'one' ? kbIds.length === 1 : kbIds.length >= 2)) && (template !== 'http-lookup' || lookupUrl.trim() !== '');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (template === 'blank') {
      close();
      void navigate(`/workflows/${NEW_WORKFLOW}`, { state: { name: name.trim() } });
      return;
    }
    setPending(true);
    setError(null);
    try {
      const kbField = needs === 'one' ? { knowledge_base_id: kbIds[0] } : { knowledge_base_ids: kbIds };
      const created = await createWorkflow({ name: name.trim(), template, ...kbField, ...(template === 'http-lookup' && { lookup_url: lookupUrl.trim() }) });
      close();
      void navigate(`/workflows/${encodeURIComponent(created.id)}`);
    } catch (failure) {
      setError(failure);
      setPending(false);
    }
  }

  const templateOptions = (Object.keys(TEMPLATES) as Template[]).map((id) => ({ id, label: t(`template_${id}`) }));
  const kbOptions = (kbs ?? []).map((kb) => ({ id: kb.id, label: kb.name }));
  return (
    <Form onSubmit={submit} className="stack">
      <Heading slot="title">{t('newWorkflow')}</Heading>
      <TextField isRequired autoFocus value={name} onChange={setName} maxLength={200}>
        <Label>{t('name')}</Label>
        <Input />
      </TextField>
      <SelectField label={t('template')} options={templateOptions} selectedKey={template} onChange={(key) => { setTemplate(key); setKbIds([]); }} />
      {needs === 'one' && <SelectField label={t('knowledgeBase')} options={kbOptions} selectedKey={kbIds[0] ?? ''} onChange={(id) => setKbIds([id])} />}
      {needs === 'several' && (
        <CheckboxGroup value={kbIds} onChange={setKbIds} className="stack">
          <Label>{t('knowledgeBases')}</Label>
          {kbOptions.map((kb) => (
            <Checkbox key={kb.id} value={kb.id}>
              <span className="box" aria-hidden="true" />
              {kb.label}
            </Checkbox>
          ))}
        </CheckboxGroup>
      )}
      {template === 'http-lookup' && (
        <TextField isRequired type="url" value={lookupUrl} onChange={setLookupUrl}>
          <Label>{t('lookupUrl')}</Label>
          <Input />
        </TextField>
      )}
      <ErrorNote error={error} />
      <div className="dialog-actions">
        <Button onPress={close}>{t('cancel')}</Button>
        <Button type="submit" className="react-aria-Button primary" isDisabled={pending || !ready}>
          {t('create')}
        </Button>
      </div>
    </Form>
  );
}
