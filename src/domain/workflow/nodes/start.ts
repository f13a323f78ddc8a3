import { z } from 'zod';
import { validateInputs, WorkflowInput } from '../inputs.ts';
import { defineNodeType, NodeFailure } from './node-type.ts';

export const StartConfig = z
  .strictObject({ inputs: z.array(WorkflowInput).max(50) })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.inputs.forEach((input, i) => {
      if (seen.has(input.name)) ctx.addIssue({ code: 'custom', path: ['inputs', i, 'name'], message: `input '${input.name}' is declared twice` });
      seen.add(input.name);
    });
  });
export type StartConfig = z.infer<typeof StartConfig>;

/** Where a run begins: it declares the run's inputs and outputs them as given. */
export const start = defineNodeType({
  type: 'start',
  instant: true,
  config: StartConfig,
  outputs: (config) => config.inputs.map((input) => input.name),
  describeOutputs: (fields) => (fields.length === 0 ? `start declares no inputs` : `start declares inputs ${fields.join(', ')}`),
  templates: [],
  entry: true,
  /** Inputs are checked again here: a run requested against an older graph may declare other inputs. */
  run({ config, scope }) {
    const result = validateInputs(config, scope.inputs);
    if (!result.ok) throw new NodeFailure('invalid_inputs', `${result.param} ${result.message}`);
    return result.values;
  },
});
