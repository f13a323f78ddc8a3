import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The targets of a Markdown file's inline links `[text](target)`, outside fenced code blocks and code spans. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

test('linkTargets finds inline links and skips code', (t) => {
  const text = 'See [a](docs/a.md#x) and [b](https://example.com).\n`[c](c.md)`\n```\n[d](d.md)\n```\n[e](../e.md)';
  t.deepEqual(linkTargets(text), ['docs/a.md#x', 'https://example.com', '../e.md']);
});

const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

test('the README and docs/ exist and have links to check', (t) => {
  t.true(files.length > 10);
  t.true(files.some((file) => linkTargets(readFileSync(file, 'utf8')).length > 0));
});

for (const file of files) {
  const name = relative(root, file);
  test(`every relative link in ${name} names a file inside the repository`, (t) => {
    const broken: string[] = [];
    for (const target of linkTargets(readFileSync(file, 'utf8'))) {
      if (isExternal(target) || target.startsWith('#')) continue;
      const path = decodeURIComponent(target.split('#')[0]!.split('?')[0]!);
      const resolved = path.startsWith('/') ? join(root, path) : resolve(dirname(file), path);
      const inside = relative(root, resolved);
      if (inside === '..' || inside.startsWith(`..${sep}`) || resolve(inside) === inside) broken.push(`${target} (outside the repository)`);
      else if (!existsSync(resolved)) broken.push(`${target} (no such file)`);
    }
    t.deepEqual(broken, []);
  });
}
