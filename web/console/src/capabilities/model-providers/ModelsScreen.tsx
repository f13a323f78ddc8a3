import { api } from '../../api/client.ts';
import { useCan, useSession } from '../../session/session.tsx';
import { useResource } from '../knowledge-bases/useResource.ts';
import { useModelsText } from './messages.ts';
import { ModelTable } from './ModelTable.tsx';
import './models.css';
import { ProviderList } from './ProviderList.tsx';

/** /models: the models the workspace can use, and (admin keys of the whole workspace) its model providers. */
export default function ModelsScreen() {
  const t = useModelsText();
  const { session } = useSession();
  // Providers belong to the whole workspace: the API refuses a key limited to knowledge bases, even an admin one.
  const canManage = useCan('admin') && session?.knowledge_base_ids === null;
  const models = useResource(async (signal) => (await api.GET('/v1/models', { signal })).data!.data, []);
  // A published agent is a model by its id: its name, from the agents, says which one it is.
  const agents = useResource(async (signal) => {
    const { data } = await api.GET('/v1/agents', { params: { query: { limit: 100 } }, signal });
    return new Map(data!.data.map((a) => [a.id, a.name]));
  }, []);
  return (
    <div className="stack models-screen">
      <div>
        <h1>{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
      </div>
      {canManage ? <ProviderList onChanged={models.reload} /> : <p className="card muted">{t('providersAdminOnly')}</p>}
      <ModelTable models={models.data} error={models.error} agentNames={agents.data} />
    </div>
  );
}
