import type { HostAllowList } from '../../lib/address-policy.ts';
import type { ChatModel, Embedder } from '../../ports/models.ts';
import type { AppContext } from '../context.ts';
import type { SearchService } from '../services/search.ts';
import type { WorkspaceModelResolver } from '../services/workspace-models.ts';
import type { CodeRunner } from './code-runner.ts';
import type { SecretValues } from './http-client.ts';

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
  /** The code nodes' sandbox; the process's shared one when not given. */
  code?: CodeRunner;
  /** Hosts and ranges the operator lets http_request nodes reach besides the public internet (KBQA_WORKFLOW_HTTP_ALLOW_HOSTS). */
  httpAllow?: HostAllowList;
  /** Where http_request nodes' secret headers are read; without it, a node naming a secret fails with secret_not_found. */
  secrets?: SecretValues;
};

/** `bytes`: the outputs' size as JSON, as they will be recorded. */
export type NodeResult = { ok: true; outputs: Record<string, unknown>; bytes: number } | { ok: false; code: string; message: string };
