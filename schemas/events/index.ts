import type { z } from 'zod';
import { apiKeyEvents } from './api-key.ts';
import { chatEvents } from './chat.ts';
import { contentClaimEvents, documentEvents, idempotencyEvents } from './document.ts';
import { knowledgeBaseEvents } from './knowledge-base.ts';
import { workflowEvents } from './workflow.ts';
import { workflowRunEvents } from './workflow-run.ts';
import { workspaceEvents } from './workspace.ts';

export const SCHEMA_VERSION = 1;

/** Every event type, its schema, version and stream category: the one source of event types. */
export const eventCatalog = {
  ...entries(workspaceEvents, 'workspace'),
  ...entries(apiKeyEvents, 'api_key'),
  ...entries(knowledgeBaseEvents, 'knowledge_base'),
  ...entries(documentEvents, 'document'),
  ...entries(contentClaimEvents, 'document_content'),
  ...entries(idempotencyEvents, 'idempotency'),
  ...entries(chatEvents, 'chat'),
  ...entries(workflowEvents, 'workflow'),
  ...entries(workflowRunEvents, 'workflow_run'),
};

type Catalog = typeof eventCatalog;
export type EventType = keyof Catalog;
export type EventData<T extends EventType> = z.infer<Catalog[T]['schema']>;

export function isKnownEventType(type: string): type is EventType {
  return Object.hasOwn(eventCatalog, type);
}

function entries<S extends Record<string, z.ZodType>, C extends string>(schemas: S, category: C) {
  return Object.fromEntries(
    Object.entries(schemas).map(([type, schema]) => [type, { schema, category, version: SCHEMA_VERSION }]),
  ) as { [K in keyof S]: { schema: S[K]; category: C; version: number } };
}
