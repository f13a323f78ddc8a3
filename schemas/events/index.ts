import type { z } from 'zod';
import { agentEvents, agentVisitorEvents } from './agent.ts';
import { apiKeyEvents } from './api-key.ts';
import { chatEvents } from './chat.ts';
import { conversationEvents } from './conversation.ts';
import { contentClaimEvents, documentChunkEvents, documentEvents, idempotencyEvents, nameClaimEvents } from './document.ts';
import { fileEvents } from './file.ts';
import { knowledgeBaseEvents } from './knowledge-base.ts';
import { responseEvents } from './response.ts';
import { secretEvents } from './secret.ts';
import { modelProviderEvents, modelProviderNameEvents } from './model-provider.ts';
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
  ...entries(documentChunkEvents, 'document_chunks'),
  ...entries(contentClaimEvents, 'document_content'),
  ...entries(nameClaimEvents, 'document_name'),
  ...entries(idempotencyEvents, 'idempotency'),
  ...entries(fileEvents, 'file'),
  ...entries(chatEvents, 'chat'),
  ...entries(responseEvents, 'response'),
  ...entries(conversationEvents, 'conversation'),
  ...entries(workflowEvents, 'workflow'),
  ...entries(workflowRunEvents, 'workflow_run'),
  ...entries(secretEvents, 'secret'),
  ...entries(modelProviderEvents, 'model_provider'),
  ...entries(modelProviderNameEvents, 'model_provider_name'),
  ...entries(agentEvents, 'agent'),
  ...entries(agentVisitorEvents, 'agent_visitor'),
};

type Catalog = typeof eventCatalog;
export type EventType = keyof Catalog;
export type EventData<T extends EventType> = z.infer<Catalog[T]['schema']>;
/** An event of one of the types `T` before the store records it: narrowing on `type` narrows `data`. */
export type AnyDomainEvent<T extends EventType = EventType> = { [K in T]: { type: K; data: EventData<K> } }[T];

export function isKnownEventType(type: string): type is EventType {
  return Object.hasOwn(eventCatalog, type);
}

// The catalog seen through its types: indexing it with a generic type keeps type and data together.
const schemas: { readonly [K in EventType]: { readonly schema: z.ZodType<EventData<K>> } } = eventCatalog;

/** The data of an event of `type`, parsed by its schema (throws a ZodError when it is off-schema). */
export function parseEventData<T extends EventType>(type: T, data: unknown): EventData<T> {
  return schemas[type].schema.parse(data);
}

/** Like parseEventData, without throwing: the parsed data, or the schema's complaint. */
export function safeParseEventData<T extends EventType>(type: T, data: unknown): z.ZodSafeParseResult<EventData<T>> {
  return schemas[type].schema.safeParse(data);
}

function entries<S extends Record<string, z.ZodType>, C extends string>(schemas: S, category: C) {
  return Object.fromEntries(
    Object.entries(schemas).map(([type, schema]) => [type, { schema, category, version: SCHEMA_VERSION }]),
  ) as { [K in keyof S]: { schema: S[K]; category: C; version: number } };
}
