import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * The command-line anchors the peers benchmark sets our figures beside, when they are installed
 * (poppler's pdftotext, the system's tesseract). Each is timed as a user would run it, from the
 * file to its text.
 */

const run = promisify(execFile);

/** The command's version line, or why it cannot be used: a missing tool is a skipped anchor, not a failure. */
export async function toolVersion(command: string, args: string[]): Promise<{ version: string } | { skipped: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { timeout: 10_000 });
    return { version: `${stdout}${stderr}`.trim().split('\n')[0] ?? command };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { skipped: code === 'ENOENT' ? `${command} is not installed` : `${command} ${args.join(' ')} failed: ${(error as Error).message.slice(0, 200)}` };
  }
}

export async function timedMs<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

export async function pdftotext(path: string): Promise<{ chars: number }> {
  const { stdout } = await run('pdftotext', [path, '-'], { maxBuffer: 256 * 1024 * 1024 });
  return { chars: stdout.length };
}

/** One page through the tesseract command, a process of its own as a user runs it; `tessdata` null: the system's models. */
export async function tesseractCli(imagePath: string, tessdata: string | null): Promise<string> {
  const dir = tessdata ? ['--tessdata-dir', tessdata] : [];
  const { stdout } = await run('tesseract', [imagePath, 'stdout', ...dir, '-l', 'eng', '--oem', '1', '--psm', '3'], {
    // One thread, as our engines use: OpenMP's second thread gained nothing here and would be unfair to one-thread wasm.
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}
