import type { ModelProviderService } from '../../app/services/model-providers.ts';
import { Deleted, ListQuery, listOf } from '../../../schemas/http/common.ts';
import { CreateModelProviderBody, DiscoveredModels, ModelProvider, ProviderCheck, UpdateModelProviderBody } from '../../../schemas/http/model-providers.ts';
import { route } from '../route.ts';

const tag = 'model-providers';

export function modelProviderRoutes(providers: ModelProviderService) {
  return [
    route({
      method: 'post',
      path: '/v1/model-providers',
      summary: 'Connect an OpenAI-compatible model provider to the workspace; its API key is stored encrypted',
      tag,
      scope: 'admin',
      body: CreateModelProviderBody,
      response: ModelProvider,
      status: 201,
      handle: async ({ principal, body, requestId }) => ({ status: 201, body: await providers.create(principal, body, requestId) }),
    }),
    route({
      method: 'get',
      path: '/v1/model-providers',
      summary: 'List the workspace’s model providers',
      tag,
      scope: 'admin',
      query: ListQuery,
      response: listOf(ModelProvider),
      handle: async ({ principal, query }) => ({ body: await providers.list(principal, query) }),
    }),
    route({
      method: 'get',
      path: '/v1/model-providers/:provider_id',
      summary: 'Get a model provider',
      tag,
      scope: 'admin',
      response: ModelProvider,
      handle: async ({ principal, params }) => ({ body: await providers.get(principal, params.provider_id) }),
    }),
    route({
      method: 'patch',
      path: '/v1/model-providers/:provider_id',
      summary: 'Change a model provider’s name, base URL, API key or models',
      tag,
      scope: 'admin',
      body: UpdateModelProviderBody,
      response: ModelProvider,
      handle: async ({ principal, params, body, requestId }) => ({ body: await providers.update(principal, params.provider_id, body, requestId) }),
    }),
    route({
      method: 'delete',
      path: '/v1/model-providers/:provider_id',
      summary: 'Delete a model provider and destroy its API key (409 in_use while knowledge bases or agents use its models)',
      tag,
      scope: 'admin',
      response: Deleted('model_provider.deleted'),
      handle: async ({ principal, params, requestId }) => {
        await providers.delete(principal, params.provider_id, requestId);
        return { body: { id: params.provider_id, object: 'model_provider.deleted', deleted: true } };
      },
    }),
    route({
      method: 'post',
      path: '/v1/model-providers/:provider_id/test',
      summary: 'Check the connection: GET {base_url}/models with the key, and say what failed (auth, DNS, refused, timeout, TLS, wrong path)',
      tag,
      scope: 'admin',
      response: ProviderCheck,
      handle: async ({ principal, params }) => ({ body: await providers.check(principal, params.provider_id) }),
    }),
    route({
      method: 'post',
      path: '/v1/model-providers/:provider_id/discover',
      summary: 'The provider’s own model list, from its /models (502 saying why when it cannot be asked)',
      tag,
      scope: 'admin',
      response: DiscoveredModels,
      handle: async ({ principal, params }) => ({ body: await providers.discover(principal, params.provider_id) }),
    }),
  ];
}
