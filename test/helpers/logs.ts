import { pino, type Logger } from 'pino';

/** One parsed log line: pino's level number, msg, and whatever fields the line carries. */
export type LogLine = { level: number; msg: string; [field: string]: any };

export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/** A pino logger (debug and up) writing into memory: `lines` parsed, `text` as written. */
export function captureLogs(): { logger: Logger; lines: LogLine[]; text(): string; waitFor(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine> } {
  const raw: string[] = [];
  const lines: LogLine[] = [];
  const logger = pino(
    { level: 'debug', base: { service: 'kbqa' } },
    {
      write(chunk: string) {
        raw.push(chunk);
        lines.push(JSON.parse(chunk) as LogLine);
      },
    },
  );
  return {
    logger,
    lines,
    text: () => raw.join(''),
    async waitFor(match, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no log line matched within ${timeoutMs} ms:\n${raw.join('')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}
