import type { Context } from 'koa';
import type { z } from 'zod';
import type { ApiKeyScope } from '../../schemas/events/api-key.ts';
import type { Principal } from '../app/services/principal.ts';
import type { LoadClass } from './load-shedding.ts';

export type Reply = { status?: number; body: unknown; headers?: Record<string, string> };

/** The names of a path template's `:name` parameters: `'/v1/files/:file_id/content'` → `'file_id'`. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/**
 * The decoded path parameters of a route, typed from its path template so a handler reads only
 * the ones its path has, without asserting they are there. A path that is only known as `string`
 * (the route table's view of every route) has any.
 */
export type PathParams<P extends string> = string extends P ? Record<string, string> : { [K in ParamNames<P>]: string };

export type RouteInput<B, Q, P extends string = string> = {
  ctx: Context;
  principal: Principal;
  body: B;
  query: Q;
  params: PathParams<P>;
  requestId: string;
};

/**
 * One table entry per endpoint: the router, the auth check and the OpenAPI document are all
 * derived from it, so they cannot disagree.
 */
export type RouteSpec<B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, P extends string = string> = {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  path: P;
  summary: string;
  tag: string;
  /** Scope the key needs; routes outside /v1 declare `public`. */
  scope: ApiKeyScope | 'public';
  /**
   * Expensive routes take a slot of their class (load-shedding.ts) once authenticated and their
   * body read, and hold it until the response is over (a stream: until it ends); 503 when none is free in time.
   */
  load?: LoadClass;
  /** Whose share of the class the request takes (the landing pages: the agent's slug), when the class bounds each one's (load-shedding.ts). */
  loadPartition?: (params: Record<string, string>) => string;
  body?: B;
  /** A tighter limit on the JSON body than the deployment's (a public route's: the landing page's 32 KB). */
  maxBodyBytes?: number;
  /** For routes that read the body themselves (multipart): how OpenAPI should describe it. */
  requestBody?: Record<string, unknown>;
  query?: Q;
  response?: z.ZodType;
  status?: number;
  /** Error statuses a public route answers by its own checks (the console's session routes: 401, 403, 429), for OpenAPI. */
  refusals?: number[];
  /** Other success statuses answered with the same body, and when (a run still going: 202). */
  otherStatuses?: Record<number, string>;
  /** The success body's media type when it is not JSON (Prometheus text). */
  mediaType?: string;
  /**
   * The route answers with server-sent events (`text/event-stream`): what the stream carries and,
   * when it also has a JSON `response`, which request asks for the stream.
   */
  eventStream?: string;
  /** OpenAPI's operationId, when the one derived from method and path reads poorly. */
  operationId?: string;
  handle(input: RouteInput<z.output<B>, z.output<Q>, P>): Promise<Reply> | Reply;
};

/** The path is inferred as its literal template, which types the handler's `params`; the table holds every route as a plain RouteSpec. */
export const route = <B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, const P extends string = string>(spec: RouteSpec<B, Q, P>) =>
  spec as unknown as RouteSpec;
