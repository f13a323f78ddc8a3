import { z } from 'zod';
import { render } from '../templates.ts';
import { defineNodeType, lookup, template } from './node-type.ts';

export const VariableAggregatorConfig = z.strictObject({ values: z.array(template).min(1).max(50) });
export type VariableAggregatorConfig = z.infer<typeof VariableAggregatorConfig>;

/**
 * Joins branches: the first of its templates that renders to something other than white space.
 * Behind a branch, a node on the path not taken has no outputs, so its reference renders empty and
 * the next value is tried; `output` is "" when every value is empty.
 */
export const variableAggregator = defineNodeType({
  type: 'variable_aggregator',
  instant: true,
  config: VariableAggregatorConfig,
  outputs: () => ['output'],
  templates: ['values'],
  run({ config, scope }) {
    const values = lookup(scope);
    const first = config.values.map((value) => render(value, values)).find((rendered) => rendered.trim() !== '');
    return { output: first ?? '' };
  },
});
