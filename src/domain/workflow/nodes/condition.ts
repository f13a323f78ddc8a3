import { z } from 'zod';
import { render } from '../templates.ts';
import { defineNodeType, lookup, template } from './node-type.ts';

/** Operators that look at `left` alone; the others compare it with `right`. */
export const UNARY_OPERATORS = ['empty', 'not_empty'] as const;

export const ConditionConfig = z
  .strictObject({
    left: template,
    operator: z.enum(['equals', 'not_equals', 'contains', 'empty', 'not_empty']),
    right: template.optional(),
  })
  .superRefine((config, ctx) => {
    const unary = (UNARY_OPERATORS as readonly string[]).includes(config.operator);
    if (!unary && config.right === undefined) {
      ctx.addIssue({ code: 'custom', path: ['right'], message: `is required when operator is ${config.operator}` });
    }
  });
export type ConditionConfig = z.infer<typeof ConditionConfig>;

/** A branch: its outgoing edges carry `when: true|false`, and only those matching `result` are taken. */
export const condition = defineNodeType({
  type: 'condition',
  instant: true,
  config: ConditionConfig,
  outputs: () => ['result'],
  templates: ['left', 'right'],
  branchOn: 'result',
  run({ config, scope }) {
    const left = render(config.left, lookup(scope));
    const right = config.right === undefined ? '' : render(config.right, lookup(scope));
    return { result: compare(config.operator, left, right) };
  },
});

/** Both sides are compared as rendered text, so `{{x.result}}` equals "true" whatever x produced. */
function compare(operator: ConditionConfig['operator'], left: string, right: string): boolean {
  switch (operator) {
    case 'equals':
      return left === right;
    case 'not_equals':
      return left !== right;
    case 'contains':
      return left.includes(right);
    case 'empty':
      return left.trim() === '';
    case 'not_empty':
      return left.trim() !== '';
  }
}
