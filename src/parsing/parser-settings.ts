import type { OcrEngineChoice } from './ocr/ocr-backend.ts';

/**
 * What the composition root hands every parser process: config.ts reads the environment once,
 * adapters/local/worker-parser.ts puts these on the process's command line, and the process's
 * entry (worker-process.mjs) gives them here before any parser runs. Elsewhere (tests,
 * benchmarks, a parse in the server's own process) the defaults hold.
 */
export type ParserProcessSettings = {
  ocrEngine: OcrEngineChoice;
  /** Page readings that may run at once (ocr.ts): two read a large page's halves, or two languages, on two cores. */
  ocrReaders: number;
  /** Who reads PDF text layers (pdf/pdf.ts): PDFium, pdf.js for what it refuses or what needs OCR; or pdf.js alone. */
  pdfEngine: PdfEngine;
};

export type PdfEngine = 'pdfium' | 'pdfjs';
export const PDF_ENGINES: readonly PdfEngine[] = ['pdfium', 'pdfjs'];

const DEFAULTS: ParserProcessSettings = { ocrEngine: 'auto', ocrReaders: 1, pdfEngine: 'pdfium' };
/** Halves of a page, or two languages: a page never has more to read at once. */
export const MAX_OCR_READERS = 2;
const OCR_ENGINES: readonly OcrEngineChoice[] = ['auto', 'native', 'wasm'];
let current: ParserProcessSettings = DEFAULTS;

export const parserProcessSettings = (): ParserProcessSettings => current;

/**
 * The event a parser process sends during a task to be ended as soon as no task runs, rather
 * than idle (worker-task.ts withRetireCheck; adapters/local/process-pool.ts acts on it).
 */
export const RETIRE_EVENT = 'kbqa:retire';

/** `--ocr-engine=<auto|native|wasm>`, `--ocr-readers=<n>`, `--pdf-engine=<pdfium|pdfjs>`: as many as were set; anything else is refused, not ignored. */
export function settingsArgs(settings: Partial<ParserProcessSettings>): string[] {
  return [
    ...(settings.ocrEngine ? [`--ocr-engine=${settings.ocrEngine}`] : []),
    ...(settings.ocrReaders ? [`--ocr-readers=${settings.ocrReaders}`] : []),
    ...(settings.pdfEngine ? [`--pdf-engine=${settings.pdfEngine}`] : []),
  ];
}

export function applySettingsArgs(argv: readonly string[]): void {
  const next = { ...DEFAULTS };
  for (const arg of argv) {
    const [, name, value = ''] = /^--([a-z-]+)=(.*)$/.exec(arg) ?? [];
    const readers = Number(value);
    if (name === 'ocr-engine' && OCR_ENGINES.includes(value as OcrEngineChoice)) next.ocrEngine = value as OcrEngineChoice;
    else if (name === 'pdf-engine' && PDF_ENGINES.includes(value as PdfEngine)) next.pdfEngine = value as PdfEngine;
    else if (name === 'ocr-readers' && Number.isInteger(readers) && readers >= 1 && readers <= MAX_OCR_READERS) next.ocrReaders = readers;
    else throw new Error(`unknown parser process argument: ${arg}`);
  }
  current = next;
}
