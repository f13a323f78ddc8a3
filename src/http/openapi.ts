import { z } from 'zod';
import { ErrorBody } from '../../schemas/http/common.ts';
import type { RouteSpec } from './route.ts';

/**
 * A schema that nests itself (the metadata filter) comes out with `$defs`; OpenAPI resolves a
 * `$ref` from the document's root, so those move to `components` (into `shared`) and refer there.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', shared?: Record<string, unknown>) {
  const { $defs, ...out } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  if (!$defs || !shared) return out;
  const toComponents = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
  for (const [name, def] of Object.entries($defs)) shared[name] = toComponents(def);
  return toComponents(out) as typeof out;
}

const TAGS: Record<string, string> = {
  models: 'The chat, embedding and rerank models this deployment can use.',
  'api-keys': 'The bearer keys of the caller’s workspace, with their scopes and knowledge bases (admin scope).',
  secrets: 'Named secrets of the workspace, stored encrypted; values are never returned (admin scope, keys not limited to knowledge bases).',
  'model-providers': 'OpenAI-compatible model providers of the workspace (OpenAI, Ollama, vLLM …): their keys stored encrypted, their models named `{provider}/{model}` (admin scope, keys not limited to knowledge bases).',
  'knowledge-bases': 'Knowledge bases and their retrieval settings.',
  documents: 'Upload documents into a knowledge base; follow their parsing and indexing; read their chunks.',
  search: 'Vector, keyword and graph recall over a knowledge base, fused and reranked.',
  chat: 'OpenAI-compatible chat grounded in a knowledge base, with citations.',
  responses: 'OpenAI’s Responses API: file_search over vector_store_ids (knowledge base ids) grounds the answer as chat does; stored responses are read back, continued and deleted.',
  conversations: 'OpenAI’s Conversations API: history kept by the server, which chat continues (`conversation`), and feedback on answers.',
  workflows: 'Graphs of nodes (retrieval, LLM, templates, conditions, replies) and their runs.',
  files: 'OpenAI’s Files API: workspace-level uploads (a key limited to some knowledge bases sees only its own), which vector stores attach.',
  'vector-stores': 'OpenAI’s Vector Stores API over knowledge bases: a vector store is a knowledge base (same id), its files are documents, their attributes the documents’ metadata.',
  agents: 'Agents: instructions, a chat model and knowledge bases (or a workflow), edited as a draft and published as immutable versions; `model: "agt_…"` talks to one, and its landing page answers anyone at `/a/{slug}`.',
  landing: 'A published agent’s public landing page: no key; the slug names the agent, a signed cookie the visitor (docs/landing-page.md).',
  mcp: 'The Model Context Protocol endpoint for agents (Claude Desktop, Cursor, agent frameworks): the same services and key checks as the REST API.',
  operations: 'Liveness, readiness, metrics and this document; no key needed.',
  console: 'The console’s sign-in: an API key checked once and sealed into an HttpOnly, SameSite=Strict session cookie, which then signs `/v1` requests that also send `X-KBQA-Console: 1`.',
};

const RATE_HEADERS = {
  'x-ratelimit-limit-requests': { description: 'Requests allowed per minute for this key.', schema: { type: 'string' } },
  'x-ratelimit-remaining-requests': { description: 'Requests left in the bucket.', schema: { type: 'string' } },
  'x-ratelimit-reset-requests': { description: 'Time until the bucket is full again, such as `1500ms`.', schema: { type: 'string' } },
};

/** Every error status an operation may declare; the body is always the error object. */
const ERRORS: Record<string, { name: string; description: string; headers?: Record<string, unknown> }> = {
  400: { name: 'BadRequest', description: 'Invalid body, query or path; `param` names the field at fault.' },
  401: { name: 'Unauthorized', description: 'The API key is missing, malformed, unknown, expired or revoked.' },
  403: { name: 'Forbidden', description: 'The key lacks the scope or the knowledge base this needs.' },
  404: { name: 'NotFound', description: 'No such resource in the caller’s workspace, or the model or knowledge base the body names does not exist.' },
  408: { name: 'RequestTimeout', description: 'The request body arrived too slowly.' },
  409: { name: 'Conflict', description: 'Changed by another request (or `If-Match` is stale); read it again and retry.' },
  413: { name: 'PayloadTooLarge', description: 'The body, or a file in it, exceeds the limit.' },
  415: { name: 'UnsupportedMediaType', description: 'Wrong `Content-Type`, a charset other than UTF-8 (`unsupported_charset`), or a file type no parser reads.' },
  429: {
    name: 'TooManyRequests',
    description: 'The key’s rate limit (or a provider’s) is reached, or too many wrong API keys came from this address or with this key’s prefix (`too_many_failed_authentications`); retry after `retry-after` seconds.',
    headers: { 'retry-after': { description: 'Seconds to wait before retrying.', schema: { type: 'string' } }, ...RATE_HEADERS },
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'Overloaded (`server_overloaded`): no slot for this kind of request came free in time; retry after `retry-after` seconds.',
    headers: { 'retry-after': { description: 'Seconds to wait before retrying.', schema: { type: 'string' } } },
  },
  default: { name: 'ServerError', description: 'A server error (500) or an overloaded or unavailable server (503, with `retry-after`); nothing internal is exposed.' },
};

/** The error statuses a route can answer, from what it reads and who may call it. */
function errorStatuses(r: RouteSpec): string[] {
  const authenticated = r.scope !== 'public';
  const refuses = (status: number) => r.refusals?.includes(status) ?? false;
  const pathParams = r.path.includes(':');
  const readsBody = r.body !== undefined || r.requestBody !== undefined;
  const changes = authenticated && r.method !== 'get' && r.scope !== 'read';
  const declared: [string, boolean][] = [
    ['400', readsBody || r.query !== undefined || pathParams],
    ['401', authenticated || refuses(401)],
    ['403', authenticated || refuses(403)],
    // A body can name a model or a knowledge base that does not exist.
    ['404', pathParams || (authenticated && readsBody)],
    ['408', readsBody],
    ['409', changes],
    ['413', readsBody],
    ['415', readsBody],
    ['429', authenticated || refuses(429)],
    // Load-shedding routes (route.ts `load`) turn requests away when full.
    ['503', r.load !== undefined],
    ['default', true],
  ];
  return declared.filter(([, applies]) => applies).map(([status]) => status);
}

const words = (segments: string[]) =>
  segments
    .flatMap((s) => s.split(/[-_.]/))
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
const isPlural = (word: string) => /[^s]s$/.test(word);
const singular = (word: string) => word.replace(/ies$/, 'y').replace(/(ch|sh|ss|x)es$/, '$1').replace(/([^s])s$/, '$1');
const ITEM_VERBS = { get: 'get', post: 'update', patch: 'update', put: 'replace', delete: 'delete' } as const;

/**
 * `getKnowledgeBase`, `listKnowledgeBaseDocuments`, `createChatCompletion`, `runWorkflow`: the
 * verb from the method (list for a collection), the nouns from the path, an item or a
 * sub-collection named after the resource whose id precedes it; a POST of a singular word after
 * an id is that action on the resource. `RouteSpec.operationId` overrides it.
 */
export function operationIdOf(r: Pick<RouteSpec, 'method' | 'path' | 'operationId'>): string {
  if (r.operationId) return r.operationId;
  const segments = r.path.split('/').filter((s) => s !== '' && s !== 'v1');
  const lastParam = segments.map((s) => s.startsWith(':')).lastIndexOf(true);
  const owner = lastParam > 0 ? singular(segments[lastParam - 1]!) : undefined;
  const tail = segments.slice(lastParam + 1);
  if (tail.length === 0) return ITEM_VERBS[r.method] + words([owner ?? 'item']);
  const noun = tail.at(-1)!;
  if (r.method === 'post' && owner && tail.length === 1 && !isPlural(noun)) return noun.replace(/[-_.](\w)/g, (_m, c: string) => c.toUpperCase()) + words([owner]);
  const list = r.method === 'get' && isPlural(noun);
  const verb = list ? 'list' : { get: 'get', post: 'create', patch: 'update', put: 'replace', delete: 'delete' }[r.method];
  return verb + words([...(owner ? [owner] : []), ...tail.slice(0, -1), list ? noun : singular(noun)]);
}

function successResponses(r: RouteSpec, shared: Record<string, unknown>): Record<string, unknown> {
  const body = r.response && { schema: jsonSchema(r.response, 'output', shared) };
  const content: Record<string, unknown> = {};
  if (body) content[r.mediaType ?? 'application/json'] = body;
  else if (r.mediaType) content[r.mediaType] = { schema: { type: 'string' } };
  if (r.eventStream) content['text/event-stream'] = { schema: { type: 'string', description: r.eventStream } };
  const responses: Record<string, unknown> = {
    [String(r.status ?? 200)]: {
      description: r.eventStream && !body ? r.eventStream : r.eventStream ? `The JSON answer, or with the stream asked for: ${r.eventStream}` : 'Success.',
      ...(Object.keys(content).length > 0 && { content }),
    },
  };
  for (const [status, description] of Object.entries(r.otherStatuses ?? {})) {
    responses[status] = { description, ...(body && { content: { [r.mediaType ?? 'application/json']: body } }) };
  }
  return responses;
}

/** A route's path as OpenAPI writes it: `/v1/files/:file_id` → `/v1/files/{file_id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** OpenAPI 3.1 from the route table: the same zod schemas that validate requests describe them. */
export function buildOpenApi(routes: readonly RouteSpec[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Map<string, string>();
  const usedErrors = new Set<string>();
  const usedTags: string[] = [];
  const shared: Record<string, unknown> = {};
  for (const r of routes) {
    const path = openApiPath(r.path);
    const operationId = operationIdOf(r);
    const clash = operationIds.get(operationId);
    if (clash) throw new Error(`operationId ${operationId} of ${r.method} ${r.path} is also ${clash}'s: give one of them RouteSpec.operationId`);
    operationIds.set(operationId, `${r.method} ${r.path}`);
    if (!usedTags.includes(r.tag)) usedTags.push(r.tag);
    const query = r.query ? jsonSchema(r.query, 'input') : undefined;
    const parameters = [
      ...[...r.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
      ...Object.entries(query?.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: query?.required?.includes(name) ?? false, schema })),
    ];
    const errors = errorStatuses(r);
    errors.forEach((status) => usedErrors.add(status));
    (paths[path] ??= {})[r.method] = {
      operationId,
      summary: r.summary,
      tags: [r.tag],
      ...(r.scope === 'public' ? { security: [] } : { 'x-required-scope': r.scope }),
      ...(parameters.length > 0 && { parameters }),
      ...(r.body && { requestBody: { required: !r.body.safeParse({}).success, content: { 'application/json': { schema: jsonSchema(r.body, 'input', shared) } } } }),
      ...(r.requestBody && { requestBody: r.requestBody }),
      responses: {
        ...successResponses(r, shared),
        ...Object.fromEntries(errors.map((status) => [status, { $ref: `#/components/responses/${ERRORS[status]!.name}` }])),
      },
    };
  }
  const errorSchema = { $ref: '#/components/schemas/Error' };
  return {
    openapi: '3.1.0',
    info: {
      title: 'KBQA API',
      version,
      description:
        'Knowledge-base question answering: upload documents into knowledge bases, search them, chat with them ' +
        '(OpenAI-compatible, streaming, with citations) and run workflows. Every `/v1` route takes `Authorization: Bearer <API key>` (or the console’s session cookie with `X-KBQA-Console: 1`); ' +
        'errors are OpenAI’s `{"error": {message, type, param, code}}`; lists are `{"object": "list", "data": [...], "has_more"}` with `?limit=&after=` paging.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/', description: 'The deployment that serves this document' }],
    security: [{ bearer: [] }, { console_session: [], console_header: [] }],
    tags: usedTags.map((name) => ({ name, ...(TAGS[name] && { description: TAGS[name] }) })),
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key of the workspace (`kbqa-…`), with the scope each operation names in `x-required-scope`.' },
        console_session: { type: 'apiKey', in: 'cookie', name: '__Host-kbqa_console', description: 'The console’s session (`POST /console/session`): signs a `/v1` request that has no Authorization header, as the key it was made from. Named `kbqa_console` over plain http to a host that is not loopback; a request carrying two session cookies is refused (400 `duplicate_console_session`).' },
        console_header: { type: 'apiKey', in: 'header', name: 'X-KBQA-Console', description: 'Always `1`: required with the session cookie (a header no other site can make a browser send).' },
      },
      schemas: { Error: jsonSchema(ErrorBody, 'output'), ...shared },
      responses: Object.fromEntries(
        Object.entries(ERRORS)
          .filter(([status]) => usedErrors.has(status))
          .map(([, { name, description, headers }]) => [name, { description, ...(headers && { headers }), content: { 'application/json': { schema: errorSchema } } }]),
      ),
    },
  };
}
