import { z } from 'zod';
import { notAModelMessage } from '../../shared/errors.ts';
import { render } from '../templates.ts';
import { defineNodeType, lookup, modelId, NodeFailure, template, type ChatCompleter } from './node-type.ts';
import { conforming, ParameterSchema } from './parameter-schema.ts';
import { readParameters } from './read-parameters.ts';

export const ParameterExtractorConfig = z.strictObject({
  /** What the parameters are read from; by default the question a start node declares. */
  text: template.default('{{start.question}}'),
  schema: ParameterSchema,
  /** A provider's chat model fills the schema by structured output; absent (or the offline model), the text is read by rules. */
  model: modelId.optional(),
});
export type ParameterExtractorConfig = z.infer<typeof ParameterExtractorConfig>;

/**
 * Fills a JSON Schema's properties from text: `data` holds the values found, `missing` names the
 * properties it could not fill (required or not, in schema order), and each property is also an
 * output of its own (`{{extract.city}}`), empty when missing. A value that does not fit its
 * property (a model answering "ten" for an integer) counts as missing.
 */
export const parameterExtractor = defineNodeType({
  type: 'parameter_extractor',
  config: ParameterExtractorConfig,
  outputs: (config) => ['data', 'missing', ...Object.keys(config.schema.properties)],
  templates: ['text'],
  names: { chatModels: ['model'] },
  async run({ config, scope, services, signal }) {
    const text = render(config.text, lookup(scope));
    let raw: Record<string, unknown> = {};
    const model = config.model === undefined ? undefined : await services.chatModel(config.model);
    if (config.model !== undefined && !model) throw new NodeFailure('model_not_found', notAModelMessage(config.model, 'chat'));
    raw = model?.passesOptions ? await extractByModel(model, text, config.schema, signal) : readParameters(text, config.schema);
    const data: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const [name, property] of Object.entries(config.schema.properties)) {
      const value = conforming(property, raw[name]);
      if (value === undefined) missing.push(name);
      else data[name] = value;
    }
    const fields = Object.fromEntries(Object.keys(config.schema.properties).map((name) => [name, data[name] ?? null]));
    return { ...fields, data, missing };
  },
});

/** Structured output: the schema as the response format, the text as the user's message; the answer must be a JSON object. */
async function extractByModel(model: ChatCompleter, text: string, schema: ParameterSchema, signal: AbortSignal): Promise<Record<string, unknown>> {
  // Every property nullable and listed as required: what strict structured output asks for, and how a model says "not in the text".
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, { type, description, enum: allowed }]) => [
      name,
      { type: [type, 'null'], ...(description !== undefined && { description }), ...(allowed !== undefined && { enum: [...allowed, null] }) },
    ]),
  );
  const response_format = {
    type: 'json_schema',
    json_schema: { name: 'parameters', strict: true, schema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false } },
  };
  const system = `Extract these parameters from the user's message. Use null for any the message does not state; never guess.${
    schema.description ? `\n${schema.description}` : ''
  } Dates as YYYY-MM-DD.`;
  const answer = await model.complete({ messages: [{ role: 'system', content: system }, { role: 'user', content: text }], temperature: 0, options: { response_format }, signal });
  try {
    const parsed: unknown = JSON.parse(/\{[\s\S]*\}/.exec(answer.content)?.[0] ?? '');
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Reported below with the answer's start.
  }
  throw new NodeFailure('model_bad_response', `the model's answer is not a JSON object: ${answer.content.slice(0, 200)}`);
}
