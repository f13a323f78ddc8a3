import { useState } from 'react';
import { Checkbox, CheckboxGroup, Input, Label, TextField } from 'react-aria-components';
import { api } from '../../api/client.ts';
import { CreateDialog, CreateForm } from '../../ui/CreateDialog.tsx';
import { SelectField } from '../../ui/SelectField.tsx';
import { useResource } from '../knowledge-bases/useResource.ts';
import { createWorkflow } from './canvas/workflow-api.ts';
import { useWorkflowText } from './messages.ts';

/** What a template needs besides a name: one knowledge base, or (intent routing) several to route between; http-lookup also the URL it asks. */
const TEMPLATES = { blank: 'none', 'knowledge-qa': 'one', 'intent-routing': 'several', 'http-lookup': 'one', 'summarise-each': 'one' } as const;
type Template = keyof typeof TEMPLATES;

/**
 * "New workflow": created at once through POST /v1/workflows, from a template or, blank, with the
 * API's default graph (a start node and a reply), so the canvas opens on the start node.
 */
export function NewWorkflowDialog() {
  const t = useWorkflowText();
  return <CreateDialog label={t('newWorkflow')}>{(close) => <NewWorkflowForm close={close} />}</CreateDialog>;
}

function NewWorkflowForm({ close }: { close(): void }) {
  const t = useWorkflowText();
  const [name, setName] = useState('');
  const [template, setTemplate] = useState<Template>('blank');
  const [kbIds, setKbIds] = useState<string[]>([]);
  const [lookupUrl, setLookupUrl] = useState('');
  const { data: kbs } = useResource(async (signal) => (await api.GET('/v1/knowledge-bases', { params: { query: { limit: 100 } }, signal })).data!.data, []);
  const needs = TEMPLATES[template];
  const ready =
    name.trim() !== '' && (needs === 'none' || (needs === 'one' ? kbIds.length === 1 : kbIds.length >= 2)) && (template !== 'http-lookup' || lookupUrl.trim() !== '');

  async function create() {
    if (template === 'blank') return { to: `/workflows/${encodeURIComponent((await createWorkflow({ name: name.trim() })).id)}` };
    const kbField = needs === 'one' ? { knowledge_base_id: kbIds[0] } : { knowledge_base_ids: kbIds };
    const created = await createWorkflow({ name: name.trim(), template, ...kbField, ...(template === 'http-lookup' && { lookup_url: lookupUrl.trim() }) });
    return { to: `/workflows/${encodeURIComponent(created.id)}` };
  }

  const templateOptions = (Object.keys(TEMPLATES) as Template[]).map((id) => ({ id, label: t(`template_${id}`) }));
  const kbOptions = (kbs ?? []).map((kb) => ({ id: kb.id, label: kb.name }));
  return (
    <CreateForm title={t('newWorkflow')} cancel={t('cancel')} create={t('create')} close={close} canCreate={ready} onCreate={create}>
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
    </CreateForm>
  );
}
