import { writeSync } from 'node:fs';

/** How log lines are written: JSON for machines, human lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

/** KBQA_LOG_FORMAT when set; else human lines on a terminal and JSON anywhere else (a file, a pipe, a collector). */
export function chooseLogFormat(setting: LogFormat | 'auto', isTty: boolean): LogFormat {
  return setting === 'auto' ? (isTty ? 'pretty' : 'json') : setting;
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, or that the line's head already shows. */
const SHOWN = new Set(['level', 'time', 'service', 'msg', 'err', 'pid', 'hostname']);
/** An access line's fields that its head shows as `POST /v1/… 200 12.4 ms`. */
const REQUEST = ['method', 'route', 'path', 'status', 'ms'];

type Entry = Record<string, unknown> & { level?: number; time?: number; msg?: string; err?: { type?: string; message?: string; stack?: string } };

const clock = (time: number) => {
  const at = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, '0')}`;
};

const value = (v: unknown) => (typeof v === 'string' && v !== '' && !/\s/.test(v) ? v : JSON.stringify(v));

/**
 * One of pino's JSON lines as a person reads it: local time, level, the message (an access line as
 * method, route, status and duration), then the other fields as key=value, and an error's stack
 * indented below. A line that is not JSON passes through as it is.
 */
export function formatLogLine(line: string): string {
  let entry: Entry;
  try {
    entry = JSON.parse(line) as Entry;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const isAccess = typeof entry.method === 'string' && 'status' in entry;
  const what = isAccess
    ? `${String(entry.method)} ${String(entry.route ?? entry.path)} ${entry.status === null ? '(nothing sent)' : String(entry.status)} ${String(entry.ms)} ms${entry.msg === 'request' ? '' : ` (${entry.msg})`}`
    : (entry.msg ?? '');
  const fields = Object.entries(entry)
    .filter(([key]) => !SHOWN.has(key) && !(isAccess && REQUEST.includes(key)))
    .map(([key, v]) => `${key}=${value(v)}`)
    .join(' ');
  const level = (LEVELS[entry.level ?? 30] ?? String(entry.level)).padEnd(5);
  const head = `${typeof entry.time === 'number' ? clock(entry.time) : '--:--:--.---'} ${level} ${what}${fields ? `  ${fields}` : ''}`;
  const err = entry.err;
  const detail = err?.stack ? `\n${err.stack.replace(/^/gm, '    ')}` : err?.message ? `  err=${value(err.message)}` : '';
  return `${head}${detail}\n`;
}

/** A pino destination that writes human lines to a file descriptor (stderr), synchronously as pino.destination does. */
export function prettyDestination(fd = 2): { write(line: string): void } {
  return { write: (line) => void writeSync(fd, formatLogLine(line.trimEnd())) };
}
