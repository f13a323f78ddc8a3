import type { ConditionConfig, NodeOfType } from '../../../schemas/workflow.ts';
import { validateInputs } from '../../domain/workflow/inputs.ts';
import { render } from '../../domain/workflow/templates.ts';
import { lookup, NodeFailure, type NodeOutputs, type RunScope } from './types.ts';

/** Inputs are checked again here: a run requested against an older graph may declare other inputs. */
export function runStart(node: NodeOfType<'start'>, scope: RunScope): NodeOutputs {
  const result = validateInputs(node.config, scope.inputs);
  if (!result.ok) throw new NodeFailure('invalid_inputs', `${result.param} ${result.message}`);
  return result.values;
}

export function runTemplate(node: NodeOfType<'template'>, scope: RunScope): NodeOutputs {
  return { output: render(node.config.template, lookup(scope)) };
}

export function runDirectReply(node: NodeOfType<'direct_reply'>, scope: RunScope): NodeOutputs {
  return { answer: render(node.config.template, lookup(scope)) };
}

export function runCondition(node: NodeOfType<'condition'>, scope: RunScope): NodeOutputs {
  const left = render(node.config.left, lookup(scope));
  const right = node.config.right === undefined ? '' : render(node.config.right, lookup(scope));
  return { result: compare(node.config.operator, left, right) };
}

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
