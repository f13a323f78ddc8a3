import { distance } from 'fastest-levenshtein';
import type { z } from 'zod';
import { badRequest } from '../app/errors.ts';

/**
 * Parses with zod; the first problem becomes a 400 whose `param` is the dotted path of the field at
 * fault, and whose code is `params.code` of a custom issue that gives one.
 */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, root?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues;
  // An unknown field is told first: a misspelt one (`querry`) is why its right name is missing.
  const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!;
  const path = [...(root ? [root] : []), ...issue.path.map(String)];
  if (issue.code === 'unrecognized_keys') {
    const unknown = issue.keys[0]!;
    const field = [...path, unknown].join('.');
    const meant = missingFieldLike(unknown, issue.path, issues, value);
    throw badRequest('unknown_field', `${field}: unknown field; ${meant ? `did you mean '${meant}'?` : 'remove it'}`, field);
  }
  const param = path.length > 0 ? path.join('.') : null;
  const message = param ? `${param}: ${issue.message}` : issue.message;
  const missing = issue.code === 'invalid_type' && valueAt(value, issue.path) === undefined;
  // A custom check may name its own code (a filter's size: filter_too_deep).
  const code = issue.code === 'custom' && typeof issue.params?.code === 'string' ? issue.params.code : missing ? 'missing_field' : 'invalid_value';
  throw badRequest(code, message, param);
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** A required field missing beside the unknown one whose name is a typo away from it (two edits at most), if any. */
function missingFieldLike(unknown: string, parent: readonly PropertyKey[], issues: readonly z.core.$ZodIssue[], value: unknown): string | undefined {
  const missing = issues
    .filter((i) => i.code === 'invalid_type' && i.path.length === parent.length + 1 && parent.every((key, n) => i.path[n] === key) && valueAt(value, i.path) === undefined)
    .map((i) => String(i.path.at(-1)));
  return missing.find((name) => distance(name, unknown) <= 2);
}
