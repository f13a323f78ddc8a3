import { NodeFailure, type ChatCompleter } from './node-type.ts';

type ClassDefinition = { name: string; description: string; examples?: string[] | undefined };

/**
 * A provider's chat model classifies: the classes with their descriptions and examples in the
 * system message, the query as the user's, and a JSON answer naming one class (structured output
 * where the provider supports it). An answer naming no class of the list fails the node rather than
 * picking a branch the model did not choose.
 */
export async function classifyByPrompt(model: ChatCompleter, query: string, classes: readonly ClassDefinition[], signal: AbortSignal) {
  const names = classes.map((c) => c.name);
  const listed = classes
    .map((c) => [`- ${c.name}: ${c.description}`, ...(c.examples ?? []).map((e) => `  example: ${e}`)].join('\n'))
    .join('\n');
  const system = `Classify the user's message into exactly one of these classes:\n${listed}\n\nAnswer with JSON only: {"class": "<one of: ${names.join(', ')}>"}`;
  const options = {
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'classification',
        strict: true,
        schema: { type: 'object', properties: { class: { type: 'string', enum: names } }, required: ['class'], additionalProperties: false },
      },
    },
  };
  const answer = await model.complete({ messages: [{ role: 'system', content: system }, { role: 'user', content: query }], temperature: 0, options, signal });
  const chosen = classNamed(answer.content, names);
  if (chosen === undefined) {
    throw new NodeFailure('model_bad_response', `the model's answer names none of the classes (${names.join(', ')}): ${answer.content.slice(0, 200)}`);
  }
  return { class: chosen, scores: Object.fromEntries(names.map((name) => [name, name === chosen ? 1 : 0])) };
}

/** The class the answer names: `{"class": …}` as asked, or (a model ignoring the format) the bare name; case does not matter. */
export function classNamed(content: string, names: readonly string[]): string | undefined {
  const match = (text: unknown) => (typeof text === 'string' ? names.find((name) => name.toLowerCase() === text.trim().toLowerCase()) : undefined);
  const json = /\{[\s\S]*\}/.exec(content)?.[0];
  if (json !== undefined) {
    try {
      const parsed: unknown = JSON.parse(json);
      if (typeof parsed === 'object' && parsed !== null) return match((parsed as Record<string, unknown>).class);
    } catch {
      // Not JSON after all: read the content as a bare name below.
    }
  }
  return match(content.replace(/^["'`\s]+|["'`.\s]+$/g, ''));
}
