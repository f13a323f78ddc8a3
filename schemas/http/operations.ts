import { z } from 'zod';

export const Health = z.object({ status: z.literal('ok') });

export const Readiness = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.record(z.string(), z.string()).describe('Each dependency: `ok`, or why it is not'),
});

export const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

/** What `GET /v1` answers: where this API is described. */
export const ApiIndex = z.object({
  object: z.literal('api'),
  version: z.string().describe('The server\'s version'),
  openapi_url: z.string().describe('The OpenAPI 3.1 document of this API, relative to the server'),
});
