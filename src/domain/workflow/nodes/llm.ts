import { z } from 'zod';
import type { ContextPassage } from '../../chat/messages.ts';
import { notCoveredAnswer } from '../../chat/not-covered.ts';
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
    const grounding = groundingOf(`${config.system ?? ''}\n${config.prompt}`, scope);
    const { passages, language } = grounding ?? {};
    // As in chat: retrieval found nothing relevant, so there is nothing to ground an answer in (said in the question's language).
    if (passages?.length === 0) return { text: notCoveredAnswer(language) };
    const result = await model.complete({ messages, temperature: config.temperature, maxTokens: config.max_tokens, passages, language, signal });
    return { text: result.content };
  },
});

/**
 * The passages behind the retrieval contexts the system message or the prompt quotes, given again as data: the offline
 * extractive model answers from these rather than parsing the prompt; and the language of the first
 * retrieval's query, the question's. Undefined when the prompt quotes no retrieval that ran, i.e. plain generation.
 */
function groundingOf(templates: string, scope: RunScope): { passages: ContextPassage[]; language?: string } | undefined {
  const sources = [...new Set(referencesIn(templates).filter((r) => r.field === 'context').map((r) => r.nodeId))].filter(
    (id) => scope.nodeTypes.get(id) === 'knowledge_retrieval' && scope.outputs.has(id),
  );
  if (sources.length === 0) return undefined;
  const passages = sources.flatMap((id) => (scope.outputs.get(id)?.passages as ContextPassage[] | undefined) ?? []);
  const language = scope.outputs.get(sources[0]!)?.language;
  return { passages, ...(typeof language === 'string' && { language }) };
}
