import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { describeApi } from '../../src/capabilities/describe-api.ts';
import { ADMIN_KEY } from './server.ts';

/**
 * Calls the real app and checks every response against the schema the served OpenAPI document
 * declares for its operation, status and media type: a status the operation does not declare
 * (other than a 5xx under `default`) or a body that does not match throws with the path and Ajv's errors.
 */

export type Doc = ReturnType<typeof describeApi>;
type Checked = { status: number; headers: Headers; body: any; text: string };
type Request = { key?: string | null; json?: unknown; raw?: string; form?: FormData; contentType?: string; headers?: Record<string, string> };

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;

export class Api {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp; statics: number }[];
  readonly exercised = new Set<string>();

  constructor(
    private readonly url: string,
    private readonly doc: Doc,
  ) {
    addFormats(this.ajv);
    this.templates = Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
      statics: template.split('/').filter((s) => s && !s.startsWith('{')).length,
    }));
  }

  async call(method: string, path: string, request: Request = {}): Promise<Checked> {
    const { key = ADMIN_KEY, json, raw, form, contentType, headers = {} } = request;
    const response = await fetch(this.url + path, {
      method,
      headers: {
        ...(key !== null && { authorization: `Bearer ${key}` }),
        ...((json !== undefined || raw !== undefined) && { 'content-type': contentType ?? 'application/json' }),
        ...headers,
      },
      body: form ?? raw ?? (json === undefined ? undefined : JSON.stringify(json)),
    });
    const text = await response.text();
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const body = mediaType === 'application/json' ? JSON.parse(text) : text;
    this.check(method.toLowerCase(), path, response.status, mediaType, body);
    return { status: response.status, headers: response.headers, body, text };
  }

  private check(method: string, path: string, status: number, mediaType: string, body: unknown) {
    const where = `${method.toUpperCase()} ${path} → ${status} ${mediaType}`;
    const pathname = path.split('?')[0]!;
    const template = this.templates
      .filter((t) => t.pattern.test(pathname))
      .sort((a, b) => b.statics - a.statics)[0]?.template;
    if (!template) throw new Error(`${where}: no path of the OpenAPI document matches`);
    const operation = (this.doc.paths[template] as Record<string, any>)[method];
    if (!operation) throw new Error(`${where}: ${template} declares no ${method} operation`);
    this.exercised.add(operation.operationId);
    const declared = operation.responses[String(status)] ?? (status >= 500 ? operation.responses.default : undefined);
    if (!declared) throw new Error(`${where}: ${operation.operationId} does not declare status ${status} (declared: ${Object.keys(operation.responses).join(', ')})`);
    const response = this.resolve(declared);
    const content = response.content?.[mediaType];
    if (!content) throw new Error(`${where}: ${operation.operationId} ${status} does not declare ${mediaType} (declared: ${Object.keys(response.content ?? {}).join(', ') || 'no body'})`);
    const pointer = `${template} ${method} ${status} ${mediaType}`;
    let validate = this.compiled.get(pointer);
    if (!validate) this.compiled.set(pointer, (validate = this.ajv.compile(this.resolve(content.schema))));
    if (!validate(body)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${'additionalProperty' in e.params ? `: ${String(e.params.additionalProperty)}` : ''}`);
      throw new Error(`${where}: the body does not match ${operation.operationId}'s schema: ${errors.join('; ')}\n${JSON.stringify(body).slice(0, 2000)}`);
    }
  }

  /** Follows a `#/components/...` reference of the document (schemas keep their own `#/$defs` references). */
  private resolve(node: any): any {
    if (typeof node?.$ref !== 'string' || !node.$ref.startsWith('#/components/')) return node;
    const target = node.$ref
      .slice(2)
      .split('/')
      .reduce((at: any, key: string) => at?.[key], this.doc);
    if (target === undefined) throw new Error(`unresolved reference ${node.$ref}`);
    return this.resolve(target);
  }
}
