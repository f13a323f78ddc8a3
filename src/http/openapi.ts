import { z } from 'zod';
import { ErrorBody } from '../../schemas/http/common.ts';
import type { RouteSpec } from './route.ts';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any' });

/** OpenAPI 3.1 from the route table: the same zod schemas that validate requests describe them. */
export function buildOpenApi(routes: readonly RouteSpec[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorResponse = { description: 'Error', content: { 'application/json': { schema: jsonSchema(ErrorBody, 'output') } } };
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    const parameters = [
      ...[...r.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
      ...Object.entries(r.query ? (jsonSchema(r.query, 'input').properties ?? {}) : {}).map(([name, schema]) => ({ name, in: 'query', required: false, schema })),
    ];
    (paths[path] ??= {})[r.method] = {
      summary: r.summary,
      tags: [r.tag],
      ...(r.scope !== 'public' && { security: [{ bearer: [] }], 'x-required-scope': r.scope }),
      ...(parameters.length > 0 && { parameters }),
      ...(r.body && { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(r.body, 'input') } } } }),
      ...(r.requestBody && { requestBody: r.requestBody }),
      responses: {
        [String(r.status ?? 200)]: {
          description: 'Success',
          ...(r.response && { content: { 'application/json': { schema: jsonSchema(r.response, 'output') } } }),
        },
        default: errorResponse,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'KBQA API', version },
    servers: [{ url: 'http://localhost:2678' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
