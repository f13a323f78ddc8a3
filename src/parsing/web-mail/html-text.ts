import { Parser } from 'htmlparser2';

const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'head']);

/**
 * The visible text of an HTML fragment, entities decoded: for raw HTML and entity references
 * embedded in Markdown, where a full block walk would be too much.
 */
export function htmlText(fragment: string): string {
  if (!/[<&]/.test(fragment)) return fragment;
  const parts: string[] = [];
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag: (name) => void (INVISIBLE.has(name) && hidden++),
      onclosetag: (name) => void (INVISIBLE.has(name) && hidden--),
      ontext: (text) => void (hidden === 0 && parts.push(text)),
    },
    { decodeEntities: true },
  );
  parser.end(fragment);
  return parts.join('');
}
