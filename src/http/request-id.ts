import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const ACCEPTABLE = /^[\w.:-]{1,128}$/;

/** Echo a caller's x-request-id when it is sane, otherwise mint one; every response carries it. */
export const requestId: Middleware = async (ctx, next) => {
  const incoming = ctx.get('x-request-id');
  const id = ACCEPTABLE.test(incoming) ? incoming : `req_${randomUUID().replaceAll('-', '')}`;
  ctx.state.requestId = id;
  ctx.set('x-request-id', id);
  await next();
};
