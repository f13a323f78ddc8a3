import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { useCan } from '../../session/session.tsx';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { useResource } from '../knowledge-bases/useResource.ts';
import { AgentDraftForm } from './AgentDraftForm.tsx';
import { AgentPreview } from './AgentPreview.tsx';
import { DeleteAgent } from './DeleteAgent.tsx';
import '../../ui/radio.css';
import './agents.css';
import { useAgentText } from './messages.ts';
import { PublishPanel } from './PublishPanel.tsx';
import { VersionList } from './VersionList.tsx';

/** /agents/:agentId: the draft's form beside its preview chat, publishing and the published versions. */
export default function AgentEditor() {
  const t = useAgentText();
  const { agentId = '' } = useParams();
  const canWrite = useCan('write');
  const { data: agent, setData: setAgent, error, reload } = useResource(async (signal) => (await api.GET('/v1/agents/{agent_id}', { params: { path: { agent_id: agentId } }, signal })).data!, [agentId]);
  // Bumped after a publish or unpublish: the versions are read again.
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (agent) document.title = `${agent.name} · KBQA`;
  }, [agent]);

  return (
    <section className="stack">
      <nav aria-label={t('back')}>
        <Link to="/agents">← {t('back')}</Link>
      </nav>
      <ErrorNote error={error} />
      {!agent && !error && <p aria-live="polite">{t('loading')}</p>}
      {agent && (
        <>
          <div className="spread">
            <h1>{agent.name}</h1>
            <span className={`status status-${agent.status}`}>{t(agent.status)}</span>
          </div>
          {!canWrite && <p className="muted">{t('readOnly')}</p>}
          <div className="agent-editor">
            <AgentDraftForm key={agent.id} agent={agent} readOnly={!canWrite} onSaved={setAgent} />
            <div className="stack agent-side">
              <PublishPanel
                agent={agent}
                canWrite={canWrite}
                onChanged={() => {
                  reload();
                  setRound((n) => n + 1);
                }}
              />
              {canWrite && <AgentPreview agentId={agent.id} openingMessage={agent.opening_message} />}
              <VersionList agentId={agent.id} round={round} />
              {canWrite && <DeleteAgent agent={agent} />}
            </div>
          </div>
        </>
      )}
    </section>
  );
}
