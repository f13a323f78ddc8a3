import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { ConfirmButton } from '../knowledge-bases/ConfirmButton.tsx';
import type { Agent } from './agent-draft.ts';
import { useAgentText } from './messages.ts';

/** Deleting the agent (DELETE /v1/agents/{id}): its page answers 404 from then on; back to the list. */
export function DeleteAgent({ agent }: { agent: Agent }) {
  const t = useAgentText();
  const navigate = useNavigate();
  return (
    <section className="card stack danger-card" aria-labelledby="agent-delete-title">
      <h2 id="agent-delete-title">{t('dangerZone')}</h2>
      <div className="row">
        <ConfirmButton
          label={t('deleteAgent')}
          confirmLabel={t('deleteAgent')}
          cancelLabel={t('cancel')}
          question={t('confirmDelete', { name: agent.name })}
          onConfirm={async () => {
            await api.DELETE('/v1/agents/{agent_id}', { params: { path: { agent_id: agent.id } } });
            void navigate('/agents');
          }}
        />
      </div>
    </section>
  );
}
