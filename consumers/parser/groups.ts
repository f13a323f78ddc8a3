import { type ParseLane, SMALL_LANE_PARSES } from '../../src/domain/document/parse-lane.ts';
import type { DocumentParser } from '../../src/ports/document-parser.ts';
import { PARSER_GROUPS, parserConsumer, type ParserDeps } from './index.ts';

export type ParserGroupDeps = Omit<ParserDeps, 'lane' | 'parser' | 'concurrency' | 'timeoutMs'> & {
  parsers: Record<ParseLane, DocumentParser>;
  parseTimeoutMs: number;
  /** Parses at once in the large lane (the small lane's is fixed). */
  parseConcurrency: number;
};

/**
 * Two groups over the same uploads, each parsing its own lane: a long scan never holds up a small
 * file. The documents capability runs them with the indexer; a parse worker of the mixed profile
 * runs them alone (composition/parse-worker.ts).
 */
export function parserGroups({ parsers, parseTimeoutMs, parseConcurrency, ...shared }: ParserGroupDeps) {
  const parser = (lane: ParseLane, concurrency: number) => parserConsumer({ ...shared, lane, parser: parsers[lane], timeoutMs: parseTimeoutMs, concurrency });
  return { [PARSER_GROUPS.large]: parser('large', parseConcurrency), [PARSER_GROUPS.small]: parser('small', SMALL_LANE_PARSES) };
}
