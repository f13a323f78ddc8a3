import { z } from 'zod';
import { referencesIn, render } from '../templates.ts';
import { defineNodeType, lookup, type RunScope, template } from './node-type.ts';

/** How long the code may run by default, and the most a node may ask for: the sandbox holds its thread while it runs. */
export const CODE_TIME_LIMIT_MS = { default: 1000, max: 10_000 };
export const MAX_CODE_CHARS = 100_000;

const inputName = z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/, 'must be a JavaScript identifier (at most 64 characters)');

export const CodeConfig = z.strictObject({
  /** A function body that receives `inputs` and returns, or that defines `main(inputs)`; either way one JSON value comes out. */
  code: z.string().min(1).max(MAX_CODE_CHARS),
  inputs: z.record(inputName, template).default({}),
  time_limit_ms: z.int().min(1).max(CODE_TIME_LIMIT_MS.max).optional(),
});
export type CodeConfig = z.infer<typeof CodeConfig>;

/**
 * JavaScript over earlier outputs, in a sandbox with no I/O (the NodeServices port runs it:
 * QuickJS compiled to WASM, with memory, time and output limits). A fault of the code fails this
 * node with the sandbox's code (code_error, code_timeout, code_memory, code_output, code_result).
 */
export const code = defineNodeType({
  type: 'code',
  config: CodeConfig,
  outputs: () => ['result'],
  templates: ['inputs'],
  async run({ config, scope, services, signal }) {
    const inputs = Object.fromEntries(Object.entries(config.inputs).map(([name, text]) => [name, inputValue(text, scope)]));
    const timeoutMs = config.time_limit_ms ?? CODE_TIME_LIMIT_MS.default;
    return { result: await services.runCode({ code: config.code, inputs, timeoutMs }, signal) };
  },
});

/**
 * A template that is one reference and nothing else (`{{search.passages}}`) passes the value as it
 * is (a list stays a list, a number a number); any other template renders to text, as elsewhere.
 */
export function inputValue(text: string, scope: RunScope): unknown {
  const [only] = referencesIn(text);
  if (only && only.raw === text.trim() && referencesIn(text).length === 1) return lookup(scope)(only.nodeId, only.field) ?? null;
  return render(text, lookup(scope));
}
