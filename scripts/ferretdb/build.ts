import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const MODULE = 'github.com/FerretDB/FerretDB';

function go(args: string[], cwd: string): string {
  // Go's progress goes to stderr: stdout carries only the FERRETDB_URL line that callers read.
  const run = spawnSync('go', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (run.error || run.status !== 0) throw new Error(`go ${args.join(' ')} failed (${run.error?.message ?? `exit ${run.status}`}); Go 1.22+ is needed`);
  return run.stdout;
}

/**
 * Builds FerretDB `version` from the Go module proxy into `output` (a few minutes on 2 cores the
 * first time, seconds from Go's build cache). Not `go install module@version`: the module as
 * published lacks build/version/version.txt, which the release process generates, and a binary
 * built without it panics at start ("Invalid build/version/version.txt file content"). So the
 * module is downloaded, copied to a temporary directory, given that file, and built there.
 */
export function buildFerretDb(version: string, output: string): void {
  process.stderr.write(`ferretdb: building ${MODULE}@${version} with Go (minutes the first time)…\n`);
  const work = mkdtempSync(join(tmpdir(), 'kbqa-ferretdb-'));
  try {
    const { Dir } = JSON.parse(go(['mod', 'download', '-json', `${MODULE}@${version}`], work)) as { Dir: string };
    const source = join(work, 'src');
    cpSync(Dir, source, { recursive: true });
    // The module cache is read-only; the copy must take the generated file and later be deleted.
    spawnSync('chmod', ['-R', 'u+w', source]);
    writeFileSync(join(source, 'build', 'version', 'version.txt'), `${version}\n`);
    mkdirSync(dirname(output), { recursive: true });
    // -buildvcs=false: the copy may sit inside another repository, whose commit must not be stamped as FerretDB's.
    go(['build', '-buildvcs=false', '-trimpath', '-o', output, './cmd/ferretdb'], source);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
