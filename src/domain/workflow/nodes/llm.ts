import { z } from 'zod';
import type { ContextPassage } from '../../chat/messages.ts';
import { NOT_COVERED_ANSWER } from '../../chat/prompt.ts';
import { notAModelMessage } from '../../shared/errors.ts';
import { referencesIn, render } from '../templates.ts';
import { defineNodeType, lookup, modelId, NodeFailure, type RunScope, template } from './node-type.ts';

export const LlmConfig = z.strictObject({
  model: modelId,
  system: template.optional(),
  prompt: template,
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.int().min(1).max(200_000).optional(),
});
export type LlmConfig = z.infer<typeof LlmConfig>;

/** One completion by a chat model of the deployment or of the run's workspace's providers: the system message and the prompt, rendered. */
export const llm = defineNodeType({
  type: 'llm',
  config: LlmConfig,
  outputs: () => ['text'],
  templates: ['system', 'prompt'],
  names: { chatModels: ['model'] },
  async run({ config, scope, services, signal }) {
    const model = await services.chatModel(config.model);
    if (!model) throw new NodeFailure('model_not_found', notAModelMessage(config.model, 'chat'));
    const values = lookup(scope);
    const messages = [
      ...(config.system === undefined ? [] : [{ role: 'system' as const, content: render(config.system, values) }]),
      { role: 'user' as const, content: render(config.prompt, values) },
    ];
    const passages = groundingPassages(`${config.system ?? ''}\n${config.prompt}`, scope);
    // As in chat: retrieval found nothing relevant, so there is nothing to ground an answer in.
    if (passages?.length === 0) return { text: NOT_COVERED_ANSWER };
    const result = await model.complete({ messages, temperature: config.temperature, maxTokens: config.max_tokens, passages, signal });
    return { text: result.content };
  },
});

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
