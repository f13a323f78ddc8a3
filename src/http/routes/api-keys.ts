import { type AppContext } from '../../app/context.ts';
import { createApiKeyFor, listApiKeys, revokeApiKey } from '../../app/services/api-keys.ts';
import { ApiKey, ApiKeyWithSecret, CreateApiKeyBody } from '../../../schemas/http/api-keys.ts';
import { Deleted, ListQuery, listOf } from '../../../schemas/http/common.ts';
import { route } from '../route.ts';

export function apiKeyRoutes(ctx: AppContext) {
  return [
    route({
      method: 'post',
      path: '/v1/api-keys',
      summary: 'Create an API key in the caller’s workspace; the secret is returned once',
      tag: 'api-keys',
      scope: 'admin',
      body: CreateApiKeyBody,
      response: ApiKeyWithSecret,
      status: 201,
      handle: async ({ principal, body, requestId }) => {
        const { key, secret } = await createApiKeyFor(ctx, principal, body, requestId);
        return { status: 201, body: { ...key, secret } };
      },
    }),
    route({
      method: 'get',
      path: '/v1/api-keys',
      summary: 'List the active API keys of the workspace',
      tag: 'api-keys',
      scope: 'admin',
      query: ListQuery,
      response: listOf(ApiKey),
      handle: async ({ principal, query }) => ({ body: await listApiKeys(ctx, principal, query) }),
    }),
    route({
      method: 'delete',
      path: '/v1/api-keys/:key_id',
      summary: 'Revoke an API key',
      tag: 'api-keys',
      scope: 'admin',
      response: Deleted('api_key.deleted'),
      handle: async ({ principal, params, requestId }) => {
        await revokeApiKey(ctx, principal, params.key_id, requestId);
        return { body: { id: params.key_id, object: 'api_key.deleted', deleted: true } };
      },
    }),
  ];
}
