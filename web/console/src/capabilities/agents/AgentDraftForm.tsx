import { type FormEvent, useCallback, useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { type Agent, type AgentForm, formOf, patchOf } from './agent-draft.ts';
import { PublicFields, RetrievalFields } from './AccessFields.tsx';
import { AgentFields } from './AgentFields.tsx';
import { useAgentText } from './messages.ts';

type Props = { agent: Agent; readOnly: boolean; onSaved(agent: Agent): void };

/** The draft as a form, grouped as the API groups it; saved with one PATCH. Read-only without write. */
export function AgentDraftForm({ agent, readOnly, onSaved }: Props) {
  const t = useAgentText();
  const [form, setForm] = useState(() => formOf(agent));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const change = useCallback((patch: Partial<AgentForm>) => {
    setSaved(false);
    setForm((now) => ({ ...now, ...patch }));
  }, []);

  async function save(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const { data } = await api.PATCH('/v1/agents/{agent_id}', { params: { path: { agent_id: agent.id } }, body: patchOf(form, agent) });
      setSaved(true);
      // The code is sent once; the field empties so a second save does not set it again.
      setForm((now) => ({ ...now, newAccessCode: '', removeAccessCode: false }));
      onSaved(data!);
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  }

  const fields = { form, change, readOnly };
  return (
    <Form onSubmit={save} className="stack agent-form" aria-label={t('editor')}>
      <fieldset>
        <legend>{t('editor')}</legend>
        <AgentFields {...fields} workflowId={agent.workflow_id} />
      </fieldset>
      <fieldset>
        <legend>{t('retrieval')}</legend>
        <RetrievalFields {...fields} />
      </fieldset>
      <fieldset>
        <legend>{t('publicAccess')}</legend>
        <PublicFields {...fields} agent={agent} />
      </fieldset>
      <ErrorNote error={error} />
      {!readOnly && (
        <div className="row">
          <Button type="submit" className="react-aria-Button primary" isDisabled={pending}>
            {t('save')}
          </Button>
          <span role="status" className="muted">
            {saved ? t('saved') : ''}
          </span>
        </div>
      )}
    </Form>
  );
}
