import { resourceNotFound } from '../../app/errors.ts';
import type { ModelProviderService } from '../../app/services/model-providers.ts';
import { type ModelCatalog, presentModel } from '../../app/services/models.ts';
import { listOf } from '../../../schemas/http/common.ts';
import { Model } from '../../../schemas/http/models.ts';
import { route } from '../route.ts';

/** The deployment's models, then the caller's workspace's providers' models (`{provider}/{model}`), which no other workspace sees. */
export function modelRoutes(models: ModelCatalog, providers: Pick<ModelProviderService, 'modelsOf'>) {
  // The deployment's catalogue is fixed at start-up: presented once, not on every request.
  let deployment: ReturnType<typeof presentModel>[] | undefined;
  const deploymentModels = () => (deployment ??= models.list().map((m) => presentModel(m)));
  const workspaceModels = async (workspaceId: string) => (await providers.modelsOf(workspaceId)).map((m) => presentModel(m, 'workspace'));
  return [
    route({
      method: 'get',
      path: '/v1/models',
      summary: 'List the models this deployment and the caller’s workspace can use',
      tag: 'models',
      scope: 'read',
      response: listOf(Model),
      handle: async ({ principal }) => ({ body: { object: 'list', data: [...deploymentModels(), ...(await workspaceModels(principal.workspaceId))], has_more: false } }),
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
