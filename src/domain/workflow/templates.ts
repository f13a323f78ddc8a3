/**
 * `{{ node_id.field }}` references inside node templates. Anything that does not match exactly,
 * such as `{{ question }}` or an unclosed `{{`, is literal text, so prompts may contain braces.
 */

export type TemplateReference = { nodeId: string; field: string; raw: string };

const REFERENCE = /\{\{\s*([a-z][a-z0-9_]{0,63})\.([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}/g;

export function referencesIn(template: string): TemplateReference[] {
  return [...template.matchAll(REFERENCE)].map((m) => ({ nodeId: m[1] ?? '', field: m[2] ?? '', raw: m[0] }));
}

export function render(template: string, values: (nodeId: string, field: string) => unknown): string {
  return template.replace(REFERENCE, (_raw, nodeId: string, field: string) => stringify(values(nodeId, field)));
}

/** Thrown by renderWithin when the text would pass its limit: the text is not built past it. */
export class RenderTooLarge extends Error {
  constructor(readonly maxChars: number) {
    super(`the rendered text passes ${maxChars} characters`);
  }
}

/** render, stopped with RenderTooLarge as soon as the text passes `maxChars` (a reference repeated 2,000 times need not be built first). */
export function renderWithin(template: string, values: (nodeId: string, field: string) => unknown, maxChars: number): string {
  let length = template.length;
  return template.replace(REFERENCE, (raw: string, nodeId: string, field: string) => {
    const text = stringify(values(nodeId, field));
    length += text.length - raw.length;
    if (length > maxChars) throw new RenderTooLarge(maxChars);
    return text;
  });
}

/**
 * A template that is exactly one reference gives the referenced value itself (a list stays a list,
 * an absent one is undefined); any other template renders to text. For fields that carry data
 * rather than prose: an end's outputs, an iteration's items.
 */
export function renderValue(template: string, values: (nodeId: string, field: string) => unknown): unknown {
  const [only] = referencesIn(template);
  if (only && template.trim() === only.raw) return values(only.nodeId, only.field);
  return render(template, values);
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  // A value JSON cannot encode (a function, a symbol) has nothing useful to show in a prompt.
  return JSON.stringify(value) ?? '';
}
