import { resourceNotFound } from '../../app/errors.ts';
import type { WorkspaceModelResolver } from '../../app/services/workspace-models.ts';
import { type ModelCatalog, presentModel } from '../../app/services/models.ts';
import type { ModelInfo } from '../../ports/models.ts';
import { listOf } from '../../../schemas/http/common.ts';
import { Model } from '../../../schemas/http/models.ts';
import { route } from '../route.ts';

/** The deployment's models, then the caller's workspace's providers' models (`{provider}/{model}`), which no other workspace sees. */
export function modelRoutes(models: ModelCatalog, providers: Pick<WorkspaceModelResolver, 'modelsOf' | 'listedModels'>) {
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
      handle: ({ principal }) => {
        // A listing already read answers at once; the first request of a workspace (or after a provider changed) reads it.
        const own = providers.listedModels(principal.workspaceId);
        if (own) return { headers: json, body: listBody(own) };
        return providers.modelsOf(principal.workspaceId).then((models) => ({ headers: json, body: listBody(models) }));
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
        const own = (await workspaceModels(principal.workspaceId)).find((m) => m.id === params.model);
        if (!own) throw resourceNotFound('model', params.model);
        return { body: own };
      },
    }),
  ];
}
