import { z } from 'zod';
import { renderValue } from '../templates.ts';
import { defineNodeType, lookup, template } from './node-type.ts';

/** Output names become the run's `outputs` keys and `{{end.name}}` fields, so they are identifiers. */
const outputName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be an identifier: letters, digits and _, not starting with a digit');

export const EndConfig = z.strictObject({
  outputs: z.record(outputName, template).refine((outputs) => Object.keys(outputs).length > 0 && Object.keys(outputs).length <= 50, {
    message: 'must name between 1 and 50 outputs',
  }),
});
export type EndConfig = z.infer<typeof EndConfig>;

/**
 * Where a run ends with named outputs rather than one answer: each template, rendered, becomes an
 * entry of the run's `outputs` (beside `answer` when a direct_reply ran too). A template that is
 * exactly one reference keeps the referenced value as it is (a list stays a list), so an end can
 * hand structured data to the caller; any other template is text.
 */
export const end = defineNodeType({
  type: 'end',
  instant: true,
  config: EndConfig,
  outputs: (config) => Object.keys(config.outputs),
  describeOutputs: (fields) => `end outputs ${fields.join(', ')}`,
  templates: ['outputs'],
  runOutputs: { all: true },
  run({ config, scope }) {
    const values = lookup(scope);
    return Object.fromEntries(Object.entries(config.outputs).map(([name, text]) => [name, renderValue(text, values) ?? '']));
  },
});
