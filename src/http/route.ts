import type { Context } from 'koa';
import type { z } from 'zod';
import type { ApiKeyScope } from '../../schemas/events/api-key.ts';
import type { Principal } from '../app/services/principal.ts';
import type { LoadClass } from './load-shedding.ts';

export type Reply = { status?: number; body: unknown; headers?: Record<string, string> };

export type RouteInput<B, Q> = {
  ctx: Context;
  principal: Principal;
  body: B;
  query: Q;
  params: Record<string, string>;
  requestId: string;
};

/**
 * One table entry per endpoint: the router, the auth check and the OpenAPI document are all
 * derived from it, so they cannot disagree.
 */
export type RouteSpec<B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType> = {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  path: string;
  summary: string;
  tag: string;
  /** Scope the key needs; routes outside /v1 declare `public`. */
  scope: ApiKeyScope | 'public';
  /**
   * Expensive routes take a slot of their class (load-shedding.ts) once authenticated and their
   * body read, and hold it until the response is over (a stream: until it ends); 503 when none is free in time.
   */
  load?: LoadClass;
  body?: B;
  /** For routes that read the body themselves (multipart): how OpenAPI should describe it. */
  requestBody?: Record<string, unknown>;
  query?: Q;
  response?: z.ZodType;
  status?: number;
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
  handle(input: RouteInput<z.output<B>, z.output<Q>>): Promise<Reply> | Reply;
};

export const route = <B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType>(spec: RouteSpec<B, Q>) =>
  spec as unknown as RouteSpec;
