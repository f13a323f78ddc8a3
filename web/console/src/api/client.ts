import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../../../sdk/typescript/src/generated/openapi.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : never;

/**
 * What a route answers on success, from the OpenAPI document: `Answer<'/v1/knowledge-bases/{kb_id}', 'get'>`.
 * The API's schemas are inlined per operation, so this is how a screen names one.
 */
export type Answer<P extends keyof paths, M extends Method> = paths[P][M] extends { responses: infer R }
  ? JsonOf<R extends { 200: infer A } ? A : R extends { 201: infer A } ? A : R extends { 202: infer A } ? A : never>
  : never;

/** What a route takes as its JSON body: `RequestBody<'/v1/knowledge-bases', 'post'>`. */
export type RequestBody<P extends keyof paths, M extends Method> = paths[P][M] extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

/** The API's error shape. */
export type ApiErrorBody = components['schemas']['Error'];

/**
 * The header every console request sends: with the session cookie it is what the server accepts
 * (a cross-site form or image cannot set it, so the cookie alone never acts: CSRF, docs/console-session.md).
 */
export const CONSOLE_HEADER = { 'X-KBQA-Console': '1' } as const;

/** An answer of the API's error shape (`{error: {message, type, code}}`), with its status. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The request field at fault, when the API names one (a 400's `param`: `graph.nodes.llm.config.prompt`). */
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

/** Who hears that the session ended (401): the session provider, which shows the sign-in. */
const expiryListeners = new Set<() => void>();
export function onSessionExpired(listener: () => void) {
  expiryListeners.add(listener);
  return () => expiryListeners.delete(listener);
}

/** Any non-2xx answer as an ApiFailure carrying the API's own words; a 401 also ends the session. */
export async function failureOf(response: Response): Promise<ApiFailure> {
  let code = `http_${response.status}`;
  let message = response.statusText || `HTTP ${response.status}`;
  let param: string | null = null;
  try {
    const body = (await response.clone().json()) as { error?: { message?: string; code?: string | null; type?: string; param?: string | null } };
    if (body.error?.message) message = body.error.message;
    code = body.error?.code ?? body.error?.type ?? code;
    param = body.error?.param ?? null;
  } catch {
    // Not JSON (a proxy's page): the status line says what there is.
  }
  if (response.status === 401) for (const listener of expiryListeners) listener();
  return new ApiFailure(response.status, code, message, param);
}

const throwOnFailure: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await failureOf(response);
    return undefined;
  },
};

/**
 * The public /v1 API, typed by its OpenAPI document (sdk/typescript/src/generated). Same origin:
 * the session cookie goes with every request. A failure throws an ApiFailure, so `data` is the
 * answer whenever a call returns.
 */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin', headers: CONSOLE_HEADER });
api.use(throwOnFailure);

/** `fetch` with the console's header and cookie, for what openapi-fetch does not cover (binary bodies, streams). */
export async function consoleFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, { ...init, credentials: 'same-origin', headers: { ...CONSOLE_HEADER, ...(init.headers as Record<string, string> | undefined) } });
  if (!response.ok) throw await failureOf(response);
  return response;
}
