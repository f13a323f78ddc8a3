import { z } from 'zod';

/** Input names become template fields, so they must be writable inside `{{start.name}}`. */
const identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be an identifier: letters, digits and _, not starting with a digit (at most 64 characters)');

/** One input a start node declares (nodes/start.ts). */
export const WorkflowInput = z.strictObject({
  name: identifier,
  type: z.enum(['string', 'number', 'boolean', 'object']),
  required: z.boolean().default(true),
  description: z.string().max(1000).optional(),
});
export type WorkflowInput = z.infer<typeof WorkflowInput>;

export type InputsResult = { ok: true; values: Record<string, unknown> } | { ok: false; param: string; message: string };

/**
 * Checks a run's inputs against the start node's declarations; the first fault wins, named by
 * `param` the way other 400s name a body field. An optional input sent as null counts as absent,
 * since JSON clients often send null for "no value"; it is then left out of `values`.
 */
export function validateInputs(startConfig: { inputs: readonly WorkflowInput[] }, inputs: unknown): InputsResult {
  const given = inputs === undefined ? {} : inputs;
  if (!isPlainObject(given)) return { ok: false, param: 'inputs', message: 'must be an object mapping input names to values' };

  const declared = new Map(startConfig.inputs.map((input) => [input.name, input]));
  const unknown = Object.keys(given).find((name) => !declared.has(name));
  if (unknown !== undefined) {
    const names = [...declared.keys()];
    const expected = names.length === 0 ? 'this workflow declares no inputs' : `declared inputs are ${names.join(', ')}`;
    return { ok: false, param: `inputs.${unknown}`, message: `is not an input of this workflow; ${expected}` };
  }

  const values: Record<string, unknown> = {};
  for (const input of startConfig.inputs) {
    // Own properties only: an input named like an Object.prototype member must not inherit it.
    const value = Object.hasOwn(given, input.name) ? given[input.name] : undefined;
    if (value === undefined || value === null) {
      if (input.required) return { ok: false, param: `inputs.${input.name}`, message: `is required (${input.type})` };
      continue;
    }
    if (!hasType(value, input.type)) return { ok: false, param: `inputs.${input.name}`, message: `must be ${article(input.type)}` };
    values[input.name] = value;
  }
  return { ok: true, values };
}

function hasType(value: unknown, type: WorkflowInput['type']): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isPlainObject(value);
  }
}

function article(type: WorkflowInput['type']): string {
  return type === 'number' ? 'a finite number' : type === 'object' ? 'an object' : `a ${type}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
