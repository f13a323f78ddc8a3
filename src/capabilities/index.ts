import type { Projection } from '../../projections/projection.ts';
import type { RouteSpec } from '../http/route.ts';
import { agents } from './agents.ts';
import { apiKeys } from './api-keys.ts';
import type { ApiDeps, Capability, WorkerDeps } from './capability.ts';
import { chat } from './chat.ts';
import { consoleApp } from './console.ts';
import { consoleSession } from './console-session.ts';
import { conversations } from './conversations.ts';
import { documents } from './documents.ts';
import { embeddings } from './embeddings.ts';
import { files } from './files.ts';
import { knowledgeBases } from './knowledge-bases.ts';
import { landingPage } from './landing-page.ts';
import { mcp } from './mcp.ts';
import { models } from './models.ts';
import { modelProviders } from './model-providers.ts';
import { responses } from './responses.ts';
import { search } from './search.ts';
import { secrets } from './secrets.ts';
import { vectorStores } from './vector-stores.ts';
import { workflows } from './workflows.ts';
import { workspaces } from './workspaces.ts';

/**
 * Every capability, the one list: the composition root composes routes, projections and consumers
 * from it, and nothing else enumerates capabilities. The order is the API's (the OpenAPI document
 * lists routes in it) and the workers' (consumer groups subscribe in it).
 */
export const CAPABILITIES: readonly Capability[] = [
  workspaces,
  models,
  modelProviders,
  embeddings,
  apiKeys,
  secrets,
  knowledgeBases,
  documents,
  search,
  chat,
  responses,
  conversations,
  workflows,
  agents,
  landingPage,
  mcp,
  files,
  vectorStores,
  consoleSession,
  consoleApp,
];

/** Every /v1 route and /mcp. */
export const apiRoutes = (deps: ApiDeps): RouteSpec[] => CAPABILITIES.flatMap((c) => c.routes?.(deps) ?? []);

/** Every read model: what the projector keeps and `kbqa replay` rebuilds. */
export const allProjections: readonly Projection[] = CAPABILITIES.flatMap((c) => c.projections ?? []);

/** Every consumer group a worker runs, by name, in the list's order. */
export const workerConsumers = (deps: WorkerDeps) => CAPABILITIES.flatMap((c) => Object.entries(c.consumers?.(deps) ?? {}));
