import { z } from 'zod';
import { notAModelMessage } from '../../shared/errors.ts';
import { render } from '../templates.ts';
import { classifyByPrompt } from './classify-by-prompt.ts';
import { defineNodeType, lookup, modelId, NodeFailure, template } from './node-type.ts';

const ClassDefinition = z.strictObject({
  name: z.string().trim().min(1).max(100),
  description: z.string().min(1).max(2000),
  examples: z.array(z.string().min(1).max(1000)).max(50).optional(),
});

export const QuestionClassifierConfig = z
  .strictObject({
    /** What is classified; by default the question a start node declares. */
    query: template.default('{{start.question}}'),
    classes: z.array(ClassDefinition).min(2).max(20),
    /** A provider's chat model classifies by prompt; absent (or the offline model), by similarity. */
    model: modelId.optional(),
  })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.classes.forEach((c, i) => {
      const key = c.name.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['classes', i, 'name'], message: `class '${c.name}' is listed twice` });
      seen.add(key);
    });
  });
export type QuestionClassifierConfig = z.infer<typeof QuestionClassifierConfig>;
export type ClassDefinition = z.infer<typeof ClassDefinition>;

/**
 * Routes by intent: `class` is the name of the class the query belongs to, and the outgoing edges
 * carry `when: "<class name>"` as a condition's carry true or false. `scores` gives each class's
 * score (0–1; by prompt, 1 for the chosen class and 0 for the others).
 */
export const questionClassifier = defineNodeType({
  type: 'question_classifier',
  config: QuestionClassifierConfig,
  outputs: () => ['class', 'scores'],
  templates: ['query'],
  names: { chatModels: ['model'] },
  branchOn: 'class',
  branches: (config) => config.classes.map((c) => c.name),
  async run({ config, scope, services, signal }) {
    const query = render(config.query, lookup(scope));
    if (config.model !== undefined) {
      const model = await services.chatModel(config.model);
      if (!model) throw new NodeFailure('model_not_found', notAModelMessage(config.model, 'chat'));
      if (model.passesOptions) return classifyByPrompt(model, query, config.classes, signal);
    }
    const texts = config.classes.map(classTexts);
    const similarities = await services.similarity(query, texts.flat(), signal);
    return pickBySimilarity(config.classes, texts, similarities);
  },
});

/** A class is compared as its name with its description, and as each example alone: an example close to the query is strong evidence by itself. */
export function classTexts(c: ClassDefinition): string[] {
  return [`${c.name}. ${c.description}`, ...(c.examples ?? [])];
}

/** A class scores its best text; ties (and a query like none of them) go to the class listed first. */
export function pickBySimilarity(classes: readonly ClassDefinition[], texts: readonly string[][], similarities: readonly number[]) {
  let offset = 0;
  const scores: Record<string, number> = {};
  let best = { name: classes[0]?.name ?? '', score: -1 };
  classes.forEach((c, i) => {
    const count = texts[i]?.length ?? 0;
    const score = Math.max(0, ...similarities.slice(offset, offset + count));
    offset += count;
    scores[c.name] = Math.round(score * 1000) / 1000;
    if (score > best.score) best = { name: c.name, score };
  });
  return { class: best.name, scores };
}
