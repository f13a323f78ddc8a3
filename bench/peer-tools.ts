import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { openPdf } from '../src/parsing/pdf-open.ts';

/**
 * The anchors the peers benchmark sets our figures beside: pdf.js alone, and the command-line
 * tools when they are installed (poppler's pdftotext, the system's tesseract). Each is timed as a
 * user would run it, from the file to its text.
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

/** pdf.js alone, one thread: open, then the text content of every page in turn. */
export async function pdfjsText(path: string): Promise<{ pages: number; chars: number }> {
  const doc = await openPdf(new Uint8Array(await readFile(path)), 60_000);
  try {
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items) if ('str' in item) chars += item.str.length;
      page.cleanup();
    }
    return { pages: doc.numPages, chars };
  } finally {
    await doc.destroy();
  }
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
