import { repairText } from './text-repair.ts';

/**
 * Block texts are compared, embedded and shown to readers: one space between words, no soft
 * hyphens or zero-width marks left over from layout, no control characters, ligatures and
 * broken glyphs repaired (every format shares this, so DOCX and HTML get the repairs too).
 */
export function normalizeText(raw: string): string {
  return repairText(raw)
    .replace(/[\u00AD\u200B-\u200D\u2060\uFEFF]/g, '')
    .replace(/[\u0000-\u001F\u007F-\u009F]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Code keeps its lines and indentation (they carry meaning); only line endings, trailing spaces
 * and the blank lines around it are tidied.
 */
export function normalizeCode(raw: string): string {
  const lines = raw
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''));
  while (lines.length && lines[0] === '') lines.shift();
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}
