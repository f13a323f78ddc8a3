import type { Logger } from 'pino';
import { createWorkerParser } from '../adapters/local/worker-parser.ts';
import type { Config } from '../config.ts';
import { type ParseLane, SMALL_LANE_PARSES } from '../domain/document/parse-lane.ts';
import type { DocumentParser } from '../ports/document-parser.ts';

/**
 * A parser per lane (domain/document/parse-lane.ts), each with its own processes: the large lane's
 * KBQA_PARSER_THREADS, and one for small files, so a small file never waits for a process a long
 * scan holds. The small lane's process never runs OCR (its files cannot need it), so it stays
 * small, and it ends when idle like the others. Readiness follows the large lane's warm-up.
 */
export function createLaneParsers(ingestion: Config['ingestion'], logger: Logger) {
  const onWorkerError = (error: unknown) => logger.warn({ err: error }, 'a parser worker died; its document failed and a new worker replaces it');
  const settings = { ocrEngine: ingestion.ocrEngine, ocrReaders: ingestion.ocrReaders, pdfEngine: ingestion.pdfEngine };
  const parsers: Record<ParseLane, DocumentParser> = {
    large: createWorkerParser({ threads: ingestion.parserThreads, maxMemoryMb: ingestion.parseMemoryMb, warmUp: ingestion.warmUp, settings, onWorkerError }),
    small: createWorkerParser({ threads: SMALL_LANE_PARSES, maxMemoryMb: ingestion.parseMemoryMb, settings, onWorkerError }),
  };
  return {
    parsers,
    ping: () => parsers.large.ping(),
    close: async () => void (await Promise.all([parsers.large.close(), parsers.small.close()])),
  };
}
