import type { NodeOfType } from '../../../schemas/workflow.ts';
import { NOT_COVERED_ANSWER } from '../../domain/chat/prompt.ts';
import { notAModelMessage } from '../../domain/shared/errors.ts';
import { referencesIn, render } from '../../domain/workflow/templates.ts';
import type { ChatMessage, ContextPassage } from '../../ports/models.ts';
import { lookup, NodeFailure, type EngineDeps, type NodeOutputs, type RunScope } from './types.ts';

export async function runLlm(node: NodeOfType<'llm'>, scope: RunScope, deps: EngineDeps, signal: AbortSignal): Promise<NodeOutputs> {
  const { config } = node;
  const model = deps.chatModels.get(config.model);
  if (!model) throw new NodeFailure('model_not_found', notAModelMessage(config.model, 'chat'));
  const values = lookup(scope);
  const messages: ChatMessage[] = [
    ...(config.system === undefined ? [] : [{ role: 'system' as const, content: render(config.system, values) }]),
    { role: 'user', content: render(config.prompt, values) },
  ];
  const passages = groundingPassages(`${config.system ?? ''}\n${config.prompt}`, scope);
  // As in chat: retrieval found nothing relevant, so there is nothing to ground an answer in.
  if (passages?.length === 0) return { text: NOT_COVERED_ANSWER };
  const result = await model.complete({ messages, temperature: config.temperature, maxTokens: config.max_tokens, passages, signal });
  return { text: result.content };
}

/**
 * The passages behind the retrieval contexts the system message or the prompt quotes, given again as data: the offline
 * extractive model answers from these rather than parsing the prompt. Undefined when the prompt
 * quotes no retrieval that ran, i.e. plain generation.
 */
function groundingPassages(templates: string, scope: RunScope): ContextPassage[] | undefined {
  const sources = [...new Set(referencesIn(templates).filter((r) => r.field === 'context').map((r) => r.nodeId))].filter(
    (id) => scope.nodeTypes.get(id) === 'knowledge_retrieval' && scope.outputs.has(id),
  );
  if (sources.length === 0) return undefined;
  return sources.flatMap((id) => (scope.outputs.get(id)?.passages as ContextPassage[] | undefined) ?? []);
}
