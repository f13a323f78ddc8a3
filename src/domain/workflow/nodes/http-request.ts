import { z } from 'zod';
import { render } from '../templates.ts';
import { defineNodeType, type HttpResponse, lookup, NodeFailure, template } from './node-type.ts';

export const HTTP_LIMITS = {
  timeoutMs: { default: 10_000, max: 120_000 },
  maxResponseBytes: { default: 1024 * 1024, max: 10 * 1024 * 1024 },
  retries: { default: 0, max: 5 },
};

/** A header name as HTTP defines a token; hop-by-hop and framing headers are the client's to set. */
const headerName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be an HTTP header name')
  .refine((name) => !FRAMING.has(name.toLowerCase()), 'is set by the client (host, content-length, connection, transfer-encoding)');
const FRAMING = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer']);
const secretName = z.string().min(1).max(200);

export const HttpRequestConfig = z
  .strictObject({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']),
    url: template,
    headers: z.record(headerName, template).default({}),
    /** Header name → the name of a secret of the workspace (/v1/secrets); its value is read when the node runs. */
    secret_headers: z.record(headerName, secretName).default({}),
    body: template.optional(),
    /** How the rendered body is sent: json (must parse as JSON), form (a JSON object, sent url-encoded) or text. */
    body_type: z.enum(['json', 'form', 'text']).default('json'),
    /** Per attempt; the node's own timeout_ms bounds all attempts together. */
    timeout_ms: z.int().min(100).max(HTTP_LIMITS.timeoutMs.max).optional(),
    max_response_bytes: z.int().min(1).max(HTTP_LIMITS.maxResponseBytes.max).optional(),
    retries: z.int().min(0).max(HTTP_LIMITS.retries.max).optional(),
  })
  .refine((c) => !Object.keys(c.secret_headers).some((name) => Object.keys(c.headers).some((h) => h.toLowerCase() === name.toLowerCase())), {
    message: 'a header may be in headers or in secret_headers, not both',
    path: ['secret_headers'],
  })
  .refine((c) => c.body === undefined || (c.method !== 'GET' && c.method !== 'HEAD'), { message: 'a GET or HEAD request has no body', path: ['body'] });
export type HttpRequestConfig = z.infer<typeof HttpRequestConfig>;

/**
 * One HTTP call to another system, through the NodeServices port, which refuses non-public
 * addresses after resolving them and on every redirect (SSRF) and holds the secret headers' values.
 * Any status is an answer (a condition may branch on it); a failure to get one fails the node.
 */
export const httpRequest = defineNodeType({
  type: 'http_request',
  config: HttpRequestConfig,
  outputs: () => ['status', 'headers', 'body', 'json'],
  templates: ['url', 'headers', 'body'],
  async run({ config, scope, services, signal }) {
    const values = lookup(scope);
    const headers = Object.fromEntries(Object.entries(config.headers).map(([name, text]) => [name, headerValue(name, render(text, values))]));
    const body = config.body === undefined ? undefined : encodeBody(config.body_type, render(config.body, values));
    if (body && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = CONTENT_TYPES[config.body_type];
    const response = await services.httpRequest(
      {
        workspaceId: scope.workspaceId,
        method: config.method,
        url: render(config.url, values).trim(),
        headers,
        secretHeaders: config.secret_headers,
        body,
        timeoutMs: config.timeout_ms ?? HTTP_LIMITS.timeoutMs.default,
        maxResponseBytes: config.max_response_bytes ?? HTTP_LIMITS.maxResponseBytes.default,
        retries: config.retries ?? HTTP_LIMITS.retries.default,
      },
      signal,
    );
    return outputsOf(response);
  },
});

const CONTENT_TYPES = { json: 'application/json', form: 'application/x-www-form-urlencoded', text: 'text/plain; charset=utf-8' };

/** A rendered value may not break out of its header line. */
function headerValue(name: string, value: string): string {
  if (/[\r\n\0]/.test(value)) throw new NodeFailure('invalid_request', `the header ${name} renders to a value with a line break`);
  return value;
}

function encodeBody(type: HttpRequestConfig['body_type'], text: string): string {
  if (type === 'text') return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new NodeFailure('invalid_request', `the body renders to text that is not JSON (body_type ${type}); use body_type text to send it as is`);
  }
  if (type === 'json') return text;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new NodeFailure('invalid_request', 'a form body renders to a JSON object of fields');
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(parsed)) form.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  return form.toString();
}

/** The response headers a flow may read: what describes the content and caching; cookies and the rest stay out of the record. */
const SAFE_HEADERS = ['content-type', 'content-length', 'content-language', 'content-disposition', 'etag', 'last-modified', 'cache-control', 'expires', 'date', 'location', 'retry-after', 'x-request-id'];

export function outputsOf(response: HttpResponse): { status: number; headers: Record<string, string>; body: string; json: unknown } {
  const headers: Record<string, string> = {};
  for (const name of SAFE_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: response.status, headers, body: response.body, json: jsonOf(headers['content-type'], response.body) };
}

/** The body parsed, when the server says it is JSON (application/json, or any +json type) and it parses; else null. */
function jsonOf(contentType: string | undefined, body: string): unknown {
  if (!contentType || !/^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim())) return null;
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

