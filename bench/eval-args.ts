// Which suites and parts `npm run eval -- …` asks for, and its file options.
import type { Suite } from './eval-context.ts';

export type Selection = { suites: Map<string, string[]>; out?: string; failures?: string };

/**
 * Names are suites (`squad2`: all its parts), `suite:part` (`xquad:zh`), or a bare part that only
 * one suite has (`keyword` is a SciFact mode), so the old `npm run eval -- keyword` still works.
 * No name at all runs every suite.
 */
export function parseEvalArgs(argv: readonly string[], registry: Readonly<Record<string, Suite>>): Selection {
  const selection: Selection = { suites: new Map() };
  const add = (suite: string, parts: readonly string[]) => selection.suites.set(suite, [...new Set([...(selection.suites.get(suite) ?? []), ...parts])]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--out' || arg === '--failures') {
      const file = argv[++i];
      if (!file) throw new Error(`${arg} needs a file`);
      selection[arg === '--out' ? 'out' : 'failures'] = file;
      continue;
    }
    const [suite, part] = resolve(arg, registry);
    add(suite, part ? [part] : (registry[suite]!.parts ?? []));
  }
  if (selection.suites.size === 0) for (const [name, s] of Object.entries(registry)) add(name, s.parts ?? []);
  return selection;
}

function resolve(arg: string, registry: Readonly<Record<string, Suite>>): [string, string?] {
  if (registry[arg]) return [arg];
  const [suite, part] = arg.split(':');
  if (part !== undefined && registry[suite!]?.parts?.includes(part)) return [suite!, part];
  const owners = Object.entries(registry).filter(([, s]) => s.parts?.includes(arg));
  if (owners.length === 1) return [owners[0]![0], arg];
  const known = Object.entries(registry).flatMap(([name, s]) => [name, ...(s.parts ?? []).map((p) => `${name}:${p}`)]);
  throw new Error(`unknown suite or part '${arg}'; choose from ${known.join(', ')}`);
}
