import { resourceNotFound } from '../../app/errors.ts';
import { type ModelCatalog, presentModel } from '../../app/services/models.ts';
import { listOf } from '../../../schemas/http/common.ts';
import { Model } from '../../../schemas/http/models.ts';
import { route } from '../route.ts';

export function modelRoutes(models: ModelCatalog) {
  // The catalogue is fixed at start-up, so its JSON is serialised once (at the first request), not on every request.
  let list: string | undefined;
  const json = { 'content-type': 'application/json; charset=utf-8' };
  return [
    route({
      method: 'get',
      path: '/v1/models',
      summary: 'List the models this deployment can use',
      tag: 'models',
      scope: 'read',
      response: listOf(Model),
      handle: () => ({ headers: json, body: (list ??= JSON.stringify({ object: 'list', data: models.list().map(presentModel), has_more: false })) }),
    }),
    route({
      method: 'get',
      path: '/v1/models/:model',
      summary: 'Get one model',
      tag: 'models',
      scope: 'read',
      response: Model,
      handle: ({ params }) => {
        const model = models.get(params.model);
        if (!model) throw resourceNotFound('model', params.model);
        return { body: presentModel(model) };
      },
    }),
  ];
}

