import { resourceNotFound } from '../../app/errors.ts';
import type { AgentDoc } from '../../../projections/agents/index.ts';
import type { Principal } from '../../app/services/principal.ts';
import type { WorkspaceModelResolver } from '../../app/services/workspace-models.ts';
import { type ModelCatalog, presentModel } from '../../app/services/models.ts';
import type { ModelInfo } from '../../ports/models.ts';
import { listOf } from '../../../schemas/http/common.ts';
import { Model } from '../../../schemas/http/models.ts';
import { route } from '../route.ts';

/** The deployment's models, then the caller's workspace's providers' models (`{provider}/{model}`), which no other workspace sees. */
export function modelRoutes(
  models: ModelCatalog,
  providers: Pick<WorkspaceModelResolver, 'modelsOf' | 'listedModels'>,
  agents: { published(principal: Principal): Promise<AgentDoc[]> },
) {
  // The deployment's catalogue is fixed at start-up: presented once, not on every request.
  let deployment: ReturnType<typeof presentModel>[] | undefined;
  const deploymentModels = () => (deployment ??= models.list().map((m) => presentModel(m)));
  const workspaceModels = async (workspaceId: string) => (await providers.modelsOf(workspaceId)).map((m) => presentModel(m, 'workspace'));
  // The list's JSON, serialised once per workspace listing (the resolver caches the listing until a provider changes), not on every request.
  const lists = new WeakMap<readonly ModelInfo[], string>();
  const json = { 'content-type': 'application/json; charset=utf-8' };
  function listBody(own: readonly ModelInfo[]): string {
    let body = lists.get(own);
    if (body === undefined) {
      body = JSON.stringify({ object: 'list', data: [...deploymentModels(), ...own.map((m) => presentModel(m, 'workspace'))], has_more: false });
      lists.set(own, body);
    }
    return body;
  }
  return [
    route({
      method: 'get',
      path: '/v1/models',
      summary: 'List the models this deployment and the caller’s workspace can use',
      tag: 'models',
      scope: 'read',
      response: listOf(Model),
      handle: async ({ principal }) => {
        // A listing already read answers at once; the first request of a workspace (or after a provider changed) reads it.
        const own = providers.listedModels(principal.workspaceId) ?? (await providers.modelsOf(principal.workspaceId));
        const published = await agents.published(principal);
        if (published.length === 0) return { headers: json, body: listBody(own) };
        // The published agents the key may read, after the models: built per request, since they differ by key.
        const list = JSON.parse(listBody(own)) as { data: unknown[] };
        return { body: { ...list, data: [...list.data, ...published.map(presentAgentModel)] } };
      },
    }),
    route({
      method: 'get',
      path: '/v1/models/:model',
      summary: 'Get one model (a workspace provider’s as `{provider}%2F{model}`)',
      tag: 'models',
      scope: 'read',
      response: Model,
      handle: async ({ principal, params }) => {
        const model = models.get(params.model);
        if (model) return { body: presentModel(model) };
        const agent = (await agents.published(principal)).find((a) => a.id === params.model);
        if (agent) return { body: presentAgentModel(agent) };
        const own = (await workspaceModels(principal.workspaceId)).find((m) => m.id === params.model);
        if (!own) throw resourceNotFound('model', params.model);
        return { body: own };
      },
    }),
  ];
}

/** A published agent as a model (`model: "agt_…"` in chat): created when its current version was published. */
const presentAgentModel = (agent: AgentDoc) => ({
  id: agent.id,
  object: 'model' as const,
  created: Math.floor(Date.parse(agent.published!.published_at) / 1000),
  owned_by: 'agent',
  type: 'agent' as const,
});
