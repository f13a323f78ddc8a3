import type { WorkflowNode } from '../../../schemas/workflow.ts';
import { ApiError } from '../../ports/api-error.ts';
import { runCondition, runDirectReply, runStart, runTemplate } from './basic-nodes.ts';
import { runKnowledgeRetrieval } from './knowledge-retrieval.ts';
import { runLlm } from './llm.ts';
import { NodeFailure, type EngineDeps, type NodeOutputs, type NodeResult, type RunScope } from './types.ts';

/**
 * Runs one node within its timeout_ms. The race matters as much as the signal: not every call a
 * node makes listens to an abort, and a run must not wait past its node's limit for it.
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
    const outputs = await Promise.race([dispatch(node, scope, deps, combined), aborted]);
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

async function dispatch(node: WorkflowNode, scope: RunScope, deps: EngineDeps, signal: AbortSignal): Promise<NodeOutputs> {
  switch (node.type) {
    case 'start':
      return runStart(node, scope);
    case 'knowledge_retrieval':
      return runKnowledgeRetrieval(node, scope, deps, signal);
    case 'llm':
      return runLlm(node, scope, deps, signal);
    case 'template':
      return runTemplate(node, scope);
    case 'condition':
      return runCondition(node, scope);
    case 'direct_reply':
      return runDirectReply(node, scope);
  }
}
