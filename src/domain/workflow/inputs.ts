import { z } from 'zod';

/** Input names become template fields, so they must be writable inside `{{start.name}}`. */
const identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be an identifier: letters, digits and _, not starting with a digit (at most 64 characters)');

const SCALAR_TYPES = ['string', 'number', 'boolean', 'object'] as const;
type ScalarType = (typeof SCALAR_TYPES)[number];
/**
 * An input's type: a JSON scalar or object, or a list (`array`: any JSON values; `array[string]`
 * and the like: every item of that type), so an iteration can go over a list the caller sends
 * instead of JSON inside a string. The names are those Dify's start node uses.
 */
export const INPUT_TYPES = [...SCALAR_TYPES, 'array', ...SCALAR_TYPES.map((type) => `array[${type}]` as const)] as const;

/** One input a start node declares (nodes/start.ts). */
export const WorkflowInput = z.strictObject({
  name: identifier,
  type: z.enum(INPUT_TYPES),
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

/** The first item of a list that is not of its declared type, by index; -1 when all are. */
const wrongItem = (items: unknown[], type: ScalarType) => items.findIndex((item) => !hasType(item, type));

function hasType(value: unknown, type: WorkflowInput['type']): boolean {
  const item = itemType(type);
  if (item !== null) return Array.isArray(value) && (item === 'any' || wrongItem(value, item) === -1);
  return hasScalarType(value, type as ScalarType);
}

function hasScalarType(value: unknown, type: ScalarType): boolean {
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

/** What a list's items must be (`any` for a plain array); null for a type that is not a list. */
function itemType(type: WorkflowInput['type']): ScalarType | 'any' | null {
  if (type === 'array') return 'any';
  const match = /^array\[(\w+)\]$/.exec(type);
  return match ? (match[1] as ScalarType) : null;
}

function article(type: WorkflowInput['type']): string {
  const item = itemType(type);
  if (item !== null) return item === 'any' ? 'an array' : `an array of which every item is ${article(item)}`;
  return type === 'number' ? 'a finite number' : type === 'object' ? 'an object' : `a ${type}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
