import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import { WorkflowGraph, type WorkflowNode } from '../../../schemas/workflow.ts';
import { templateFields, topologicalOrder } from '../../domain/workflow/graph.ts';
import { render } from '../../domain/workflow/templates.ts';
import { lookup, NodeFailure, type NodeOutputs, type NodeServices, type RunScope } from '../../domain/workflow/nodes/node-type.ts';
import { nodeType, REPLY_TYPES } from '../../domain/workflow/nodes/index.ts';
import { cutText, MAX_NODE_OUTPUT_BYTES, outputTooLarge, recordedBytes, traceInputs } from '../../domain/workflow/limits.ts';
import { isLive, runOutputsOf } from '../../domain/workflow/walk.ts';
import { ApiError } from '../../ports/api-error.ts';
import { textSimilarity } from './similarity.ts';
import { sharedCodeRunner } from './code-runner.ts';
import { sendHttpRequest } from './http-client.ts';
import type { EngineDeps, NodeResult } from './types.ts';

/**
 * Runs one node within its timeout_ms, by its type's executor (src/domain/workflow/nodes/). The
 * race matters as much as the signal: not every call a node makes listens to an abort, and a run
 * must not wait past its node's limit for it.
 */
export async function executeNode(node: WorkflowNode, scope: RunScope, deps: EngineDeps, signal?: AbortSignal): Promise<NodeResult> {
  const timeout = AbortSignal.timeout(node.timeout_ms);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(combined.reason);
    combined.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const run = async () => nodeType(node.type).run({ config: node.config, scope, services: nodeServices(deps, scope.workspaceId), signal: combined });
    const outputs = await Promise.race([run(), aborted]);
    // Measured once here for every type (an iteration's results, a template's text, an http body …): they are recorded whole.
    const bytes = recordedBytes(outputs);
    if (bytes > MAX_NODE_OUTPUT_BYTES) return { ok: false, ...outputTooLarge(`node '${node.id}' gave outputs of`, bytes) };
    return { ok: true, outputs, bytes };
  } catch (error) {
    if (timeout.aborted) return { ok: false, code: 'timeout', message: `node '${node.id}' did not finish within ${node.timeout_ms} ms` };
    if (error instanceof NodeFailure || error instanceof ApiError) return { ok: false, code: error.code, message: cutText(error.message) };
    throw error;
  } finally {
    if (onAbort) combined.removeEventListener('abort', onAbort);
    aborted.catch(() => undefined);
  }
}

/** The executors' port over the services the HTTP API uses; a run's models are those of its workspace, never another's. */
export function nodeServices(deps: EngineDeps, workspaceId: string): NodeServices {
  return {
    async retrieve({ workspaceId, knowledgeBaseId, ...request }, signal) {
      const kb = await deps.ctx.readModels.get<KnowledgeBaseDoc>('knowledge_bases', knowledgeBaseId);
      if (!kb || kb.workspace_id !== workspaceId) return undefined;
      const retrieved = await deps.search.retrieveContext(kb, request, { signal, maxContextTokens: deps.maxContextTokens });
      return { ...retrieved, language: deps.search.analyzer.detectLanguage(request.query) };
    },
    chatModel: async (id) => deps.chatModels.get(id) ?? (await deps.workspaceModels?.chatModel(workspaceId, id)),
    similarity: async (query, texts) => textSimilarity({ analyzer: deps.search.analyzer, embedder: deps.offlineEmbedder }, query, texts),
    runSubgraph: async (graph, inputs, signal) => runSubgraph(WorkflowGraph.parse(graph), inputs, { deps, workspaceId, signal }),
    runCode: (request, signal) => (deps.code ?? sharedCodeRunner).run(request, signal),
    // The secrets read are always the run's workspace's, whatever the request says.
    httpRequest: (request, signal) => sendHttpRequest({ allow: deps.httpAllow, secrets: deps.secrets }, { ...request, workspaceId }, signal),
  };
}

/**
 * A sub-graph's run inside its iteration node: walked as the runner walks a graph (walk.ts), but
 * in memory, as one step of the iteration that holds it: its nodes' steps are not recorded, the
 * iteration's results are. The first node to fail fails it, named.
 */
async function runSubgraph(graph: WorkflowGraph, inputs: Record<string, unknown>, run: { deps: EngineDeps; workspaceId: string; signal: AbortSignal }): Promise<NodeOutputs> {
  const outputs = new Map<string, NodeOutputs>();
  const scope: RunScope = { workspaceId: run.workspaceId, inputs, outputs, nodeTypes: new Map(graph.nodes.map((n) => [n.id, n.type])) };
  for (const id of topologicalOrder(graph)) {
    const node = graph.nodes.find((n) => n.id === id)!;
    if (!isLive(node, graph, outputs)) continue;
    const result = await executeNode(node, scope, run.deps, run.signal);
    if (!result.ok) throw new NodeFailure(result.code, `node '${id}' failed: ${result.message}`);
    outputs.set(id, result.outputs);
  }
  const runOutputs = runOutputsOf(graph, outputs);
  if (runOutputs === undefined) throw new NodeFailure('no_reply', `no ${REPLY_TYPES} node of the sub-graph was reached on the branches it took`);
  return runOutputs;
}

/** What a node's templates render to in this scope: the inputs a trace shows for the node (cut beyond MAX_TRACE_INPUTS_BYTES). */
export function renderedInputs(node: WorkflowNode, scope: RunScope): Record<string, string> {
  return traceInputs(Object.fromEntries(templateFields(node).map(({ field, template }) => [field, render(template, lookup(scope))])));
}
