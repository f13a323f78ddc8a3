import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type { OcrBackend } from './ocr-backend.ts';
import { plainTessdataDir } from './tessdata-plain.ts';

/**
 * The system's tesseract (the `tesseract` command, 4 or later), when one is installed: with the
 * same model it read the shared scans in 0.6-1.0× tesseract.js's time (bench peers, a busy
 * machine), and each reading is a process of about 50 MB, not a 300 MB wasm heap, so two can run
 * at once on two cores (ocr-auto.ts). It reads our npm models (tessdata-plain.ts), never the
 * system's own, so both engines give the same text.
 */

const MIN_MAJOR = 4;

/** The command when it runs and is recent enough to read LSTM models; null otherwise. Asked once per thread. */
let found: string | null | undefined;
export function findNativeTesseract(command = 'tesseract'): string | null {
  if (found !== undefined && command === 'tesseract') return found;
  const result = spawnSync(command, ['--version'], { encoding: 'utf8', timeout: 5_000 });
  const version = /tesseract\s+v?(\d+)\./i.exec(`${result.stdout ?? ''}${result.stderr ?? ''}`);
  const usable = result.status === 0 && version !== null && Number(version[1]) >= MIN_MAJOR ? command : null;
  if (command === 'tesseract') found = usable;
  return usable;
}

/**
 * Tesseract parallelises one page over OpenMP threads, which gained nothing on a 2-core machine
 * (0.90 s a page either way) and would fight the second page being read on the other core.
 */
const CHILD_ENV = { ...process.env, OMP_THREAD_LIMIT: '1' };

/**
 * What tesseract.js's workers are set to (ocr-workers.ts): LSTM only, automatic page segmentation,
 * no inversion pass. TSV by variable, not by the `tsv` config file, which lives beside the system's
 * models and not in our folder.
 */
const READ_ARGS = ['--oem', '1', '-c', 'tessedit_do_invert=0', '-c', 'tessedit_create_tsv=1'];
const PSM = { page: '3', lines: '6' } as const;

export function createNativeBackend(command: string): OcrBackend {
  const running = new Set<ChildProcess>();

  const exec = (args: string[], pgm: Buffer, signal?: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(command, ['stdin', 'stdout', ...args], { env: CHILD_ENV, stdio: ['pipe', 'pipe', 'pipe'] });
      running.add(child);
      const stop = () => child.kill('SIGKILL');
      if (signal?.aborted) stop();
      signal?.addEventListener('abort', stop, { once: true });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      // A child killed mid-page closes its stdin under us; the exit below says what happened.
      child.stdin.on('error', () => {});
      child.on('error', reject);
      child.on('close', (code, killed) => {
        running.delete(child);
        signal?.removeEventListener('abort', stop);
        if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
        else reject(new Error(`tesseract exited with ${killed ?? code}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 300)}`));
      });
      child.stdin.end(pgm);
    });

  return {
    readTsv: (languages, pgm, signal, layout = 'page') =>
      exec(['--tessdata-dir', plainTessdataDir(languages.split('+')), '-l', languages, '--psm', PSM[layout], ...READ_ARGS], pgm, signal),
    async detectScript(pgm, signal) {
      const out = await exec(['--tessdata-dir', plainTessdataDir(['osd']), '-l', 'osd', '--psm', '0'], pgm, signal);
      return /^Script:\s*(\S+)/m.exec(out)?.[1] ?? null;
    },
    // Each reading has its own process, stopped by its own signal: nothing is shared to be stuck.
    drop: async () => {},
    close: async () => running.forEach((child) => child.kill('SIGKILL')),
  };
}
