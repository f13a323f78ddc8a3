import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A fenced block of the quick start (docs/getting-started.md, linked from the README's first section) marked `<!-- quickstart:<kind> -->` on the line before it. */
export type MarkedBlock = { kind: string; body: string };

export function markedBlocks(readmePath: string): MarkedBlock[] {
  const text = readFileSync(readmePath, 'utf8');
  const marked = /<!-- quickstart:([\w-]+) -->\n```\w*\n([\s\S]*?)\n```/g;
  return [...text.matchAll(marked)].map((m) => ({ kind: m[1]!, body: m[2]! }));
}

/** The README opens with `npm start` and `npm test` and links here; the walkthrough with its marked blocks lives here. */
export const readmePath = (root: string) => join(root, 'docs', 'getting-started.md');

/**
 * What the README shows is an excerpt: `…` stands for what varies (ids, scores) or is left out.
 * Each line's pieces between the ellipses must appear in the output, in the README's order.
 * Returns the first piece that does not, or null when every piece was found.
 */
export function missingExcerpt(shown: string, actual: string): string | null {
  let from = 0;
  for (const line of shown.split('\n')) {
    for (const piece of line.split('…').map((p) => p.trim()).filter(Boolean)) {
      const at = actual.indexOf(piece, from);
      if (at < 0) return piece;
      from = at + piece.length;
    }
  }
  return null;
}

/**
 * An `output-exact` block: what it shows is what the command prints, line for line (each line an
 * excerpt of its own line, `…` standing for what varies), no line more, no line fewer. Returns what
 * differs, or null.
 */
export function inexactOutput(shown: string, actual: string): string | null {
  const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');
  const [want, got] = [lines(shown), lines(actual)];
  if (want.length !== got.length) return `${want.length} lines shown, ${got.length} printed`;
  for (const [i, line] of want.entries()) {
    const missing = missingExcerpt(line, got[i]!);
    if (missing !== null) return `line ${i + 1} shows "${missing}"`;
  }
  return null;
}
