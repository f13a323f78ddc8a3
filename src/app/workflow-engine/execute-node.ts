import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { WorkflowNode } from '../../../schemas/workflow.ts';
import { NodeFailure, type NodeServices, type RunScope } from '../../domain/workflow/nodes/node-type.ts';
import { nodeType } from '../../domain/workflow/nodes/index.ts';
import { ApiError } from '../../ports/api-error.ts';
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
    return { ok: true, outputs };
  } catch (error) {
    if (timeout.aborted) return { ok: false, code: 'timeout', message: `node '${node.id}' did not finish within ${node.timeout_ms} ms` };
    if (error instanceof NodeFailure || error instanceof ApiError) return { ok: false, code: error.code, message: error.message };
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
      return deps.search.retrieveContext(kb, request, { signal, maxContextTokens: deps.maxContextTokens });
    },
    chatModel: async (id) => deps.chatModels.get(id) ?? (await deps.workspaceModels?.chatModel(workspaceId, id)),
    runCode: (request) => (deps.code ?? sharedCodeRunner).run(request),
    // The secrets read are always the run's workspace's, whatever the request says.
    httpRequest: (request, signal) => sendHttpRequest({ allow: deps.httpAllow, secrets: deps.secrets }, { ...request, workspaceId }, signal),
  };
}
