import { badRequest } from '../app/errors.ts';

/**
 * How deep a JSON body may nest (objects and arrays; the body itself is level 1). No route needs
 * more than a few dozen levels; deeper bodies are refused before validation, whose schemas recurse
 * with the value (a filter nested 1,000 deep overflowed the stack in zod).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Walks a parsed body without recursion (so any depth is safe to walk) and refuses it when it nests
 * deeper than MAX_JSON_DEPTH (400 `nesting_too_deep`, `param` the top-level field holding the
 * deepest part) or holds a `__proto__` key (400 `invalid_json`: merged into an object it would set
 * that object's prototype). The walk stops at the limit: a deeper body costs no more than one at it.
 */
export function checkJsonShape(body: unknown): void {
  const stack: { value: object; depth: number; field: string | null }[] = [];
  if (isContainer(body)) stack.push({ value: body, depth: 1, field: null });
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, depth, field } = next;
    if (depth > MAX_JSON_DEPTH) {
      const where = field === null ? 'The body' : `${field}:`;
      throw badRequest('nesting_too_deep', `${where} nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays, the most a request body may.`, field);
    }
    if (Object.hasOwn(value, '__proto__')) throw badRequest('invalid_json', 'The body is not valid JSON: it holds a forbidden __proto__ key.');
    const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
    const keys = field === null && !Array.isArray(value) ? Object.keys(value) : null;
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (isContainer(child)) stack.push({ value: child, depth: depth + 1, field: field ?? keys?.[i] ?? String(i) });
    }
  }
}

const isContainer = (value: unknown): value is object => value !== null && typeof value === 'object';
