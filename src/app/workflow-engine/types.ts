import type { ChatModel, Embedder } from '../../ports/models.ts';
import type { AppContext } from '../context.ts';
import type { SearchService } from '../services/search.ts';
import type { WorkspaceModelResolver } from '../services/workspace-models.ts';

export { lookup, NodeFailure, type NodeOutputs, type RunScope } from '../../domain/workflow/nodes/node-type.ts';

/** What nodes may call; the runner gets the same services the HTTP API uses. */
export type EngineDeps = {
  ctx: AppContext;
  search: SearchService;
  chatModels: ReadonlyMap<string, ChatModel>;
  /** The chat models of the run's workspace's providers (`{provider}/{model}`), beside the deployment's. */
  workspaceModels?: Pick<WorkspaceModelResolver, 'chatModel'>;
  /** The same budget chat uses, so a workflow's retrieval keeps the passages chat would. */
  maxContextTokens: number;
  /** The built-in embedder an offline question classifier compares with; without it, term overlap alone. */
  offlineEmbedder?: Embedder;
};

export type NodeResult = { ok: true; outputs: Record<string, unknown> } | { ok: false; code: string; message: string };
