import type { OcrEngineChoice } from './ocr-backend.ts';

/**
 * What the composition root hands every parser process: config.ts reads the environment once,
 * adapters/local/worker-parser.ts puts these on the process's command line, and the process's
 * entry (worker-process.mjs) gives them here before any parser runs. Elsewhere (tests,
 * benchmarks, a parse in the server's own process) the defaults hold.
 */
export type ParserProcessSettings = { ocrEngine: OcrEngineChoice };

const DEFAULTS: ParserProcessSettings = { ocrEngine: 'auto' };
const OCR_ENGINES: readonly OcrEngineChoice[] = ['auto', 'native', 'wasm'];
let current: ParserProcessSettings = DEFAULTS;

export const parserProcessSettings = (): ParserProcessSettings => current;

/**
 * The event a parser process sends during a task to be ended as soon as no task runs, rather
 * than idle (worker-task.ts withRetireCheck; adapters/local/process-pool.ts acts on it).
 */
export const RETIRE_EVENT = 'kbqa:retire';

/** `--ocr-engine=<auto|native|wasm>`: as many as were set; anything else is refused, not ignored. */
export function settingsArgs(settings: Partial<ParserProcessSettings>): string[] {
  return settings.ocrEngine ? [`--ocr-engine=${settings.ocrEngine}`] : [];
}

export function applySettingsArgs(argv: readonly string[]): void {
  const next = { ...DEFAULTS };
  for (const arg of argv) {
    const engine = /^--ocr-engine=(.*)$/.exec(arg)?.[1];
    if (engine === undefined || !OCR_ENGINES.includes(engine as OcrEngineChoice)) throw new Error(`unknown parser process argument: ${arg}`);
    next.ocrEngine = engine as OcrEngineChoice;
  }
  current = next;
}
