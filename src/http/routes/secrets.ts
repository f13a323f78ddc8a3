import type { SecretService } from '../../app/services/secrets.ts';
import { listOf } from '../../../schemas/http/common.ts';
import { CreateSecretBody, Secret, SecretDeleted, SecretListQuery, UpdateSecretBody } from '../../../schemas/http/secrets.ts';
import { route } from '../route.ts';

export function secretRoutes(secrets: SecretService) {
  return [
    route({
      method: 'post',
      path: '/v1/secrets',
      summary: 'Store a secret in the caller’s workspace; its value is encrypted and never returned',
      tag: 'secrets',
      scope: 'admin',
      body: CreateSecretBody,
      response: Secret,
      status: 201,
      handle: async ({ principal, body, requestId }) => ({ status: 201, body: await secrets.create(principal, body, requestId) }),
    }),
    route({
      method: 'get',
      path: '/v1/secrets',
      summary: 'List the workspace’s secrets by name, without their values',
      tag: 'secrets',
      scope: 'admin',
      query: SecretListQuery,
      response: listOf(Secret),
      handle: async ({ principal, query }) => ({ body: await secrets.list(principal, query) }),
    }),
    route({
      method: 'patch',
      path: '/v1/secrets/:name',
      summary: 'Change the hosts a secret may be sent to (its value is kept)',
      tag: 'secrets',
      scope: 'admin',
      body: UpdateSecretBody,
      response: Secret,
      handle: async ({ principal, params, body, requestId }) => ({ body: await secrets.update(principal, params.name, body, requestId) }),
    }),
    route({
      method: 'delete',
      path: '/v1/secrets/:name',
      summary: 'Delete a secret and destroy its value',
      tag: 'secrets',
      scope: 'admin',
      response: SecretDeleted,
      handle: async ({ principal, params, requestId }) => {
        await secrets.delete(principal, params.name, requestId);
        return { body: { name: params.name, object: 'secret.deleted', deleted: true } };
      },
    }),
  ];
}
