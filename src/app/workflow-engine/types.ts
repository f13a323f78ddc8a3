import type { ChatModel } from '../../ports/models.ts';
import type { AppContext } from '../context.ts';
import type { SearchService } from '../services/search.ts';

/** What nodes may call; the runner gets the same services the HTTP API uses. */
export type EngineDeps = {
  ctx: AppContext;
  search: SearchService;
  chatModels: ReadonlyMap<string, ChatModel>;
  /** The same budget chat uses, so a workflow's retrieval keeps the passages chat would. */
  maxContextTokens: number;
};

export type NodeOutputs = Record<string, unknown>;

/** What a node sees of its run: who runs it, the validated inputs, and what earlier nodes produced. */
export type RunScope = {
  workspaceId: string;
  inputs: Record<string, unknown>;
  outputs: ReadonlyMap<string, NodeOutputs>;
  /** Type of each node in the graph, so a node can tell what a reference points at. */
  nodeTypes: ReadonlyMap<string, string>;
};

export type NodeResult = { ok: true; outputs: NodeOutputs } | { ok: false; code: string; message: string };

/** Thrown by an executor for a failure the run should report as is, with its own code. */
export class NodeFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The template lookup: a reference to a node that did not run (a branch not taken) renders empty. */
export const lookup =
  (scope: RunScope) =>
  (nodeId: string, field: string): unknown =>
    scope.outputs.get(nodeId)?.[field];
