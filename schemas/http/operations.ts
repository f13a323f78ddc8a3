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
