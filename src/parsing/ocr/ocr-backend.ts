/**
 * What reads a page: tesseract.js's wasm workers (ocr-workers.ts) or the system's tesseract
 * (ocr-native.ts). Both take the page as a PGM and the languages as tesseract names them
 * ('eng', 'deu+eng'), and give tesseract's TSV, so the engine (ocr.ts) does not care which.
 */
export type ReadLayout = 'page' | 'lines';

export type OcrBackend = {
  /**
   * `signal`: stops this reading alone (one found not needed, or past its time). `layout`: 'page'
   * finds the page's columns and blocks (PSM 3); 'lines' takes the image as one block of lines
   * (PSM 6), for lines cut from a page and stacked (ocr-strips.ts), of which PSM 3 left a Korean
   * line unread, alone or stacked.
   */
  readTsv(languages: string, pgm: Buffer, signal?: AbortSignal, layout?: ReadLayout): Promise<string>;
  /** The page's script as tesseract's OSD names it ('Latin', 'Cyrillic', 'Han' …); rejects when it cannot tell. */
  detectScript(pgm: Buffer, signal?: AbortSignal): Promise<string | null>;
  /** Stops what a language set ('osd' for detection) has running: a page that timed out may be stuck in it. */
  drop(key: string): Promise<void>;
  close(): Promise<void>;
};

/**
 * 'native' reads with the system's tesseract (ocr-native.ts), 'wasm' with tesseract.js, 'auto'
 * with the system's when one is installed. Both read the same npm models.
 */
export type OcrEngineChoice = 'auto' | 'native' | 'wasm';
