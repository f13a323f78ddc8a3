import type { Logger } from 'pino';
import { upgradeToChunkStreams } from '../app/chunk-streams-upgrade.ts';
import { reanalyseKeywords } from '../app/keyword-reanalysis.ts';

// What the composition root (src/main.ts) runs on a data directory before the indexer starts.

/** A data directory from before chunk streams, upgraded before the indexer starts (app/chunk-streams-upgrade.ts). */
export async function upgradeDataDir(deps: Parameters<typeof upgradeToChunkStreams>[0], logger: Logger) {
  const started = performance.now();
  const report = await upgradeToChunkStreams(deps);
  // A fresh data directory has nothing to upgrade: no line for it.
  if (!report || (report.documents === 0 && report.skipped.length === 0)) return;
  for (const { document, error } of report.skipped) logger.warn({ err: error, ...document }, 'a passage could not be upgraded; kbqa reindex writes it again');
  logger.info({ documents: report.documents, ms: Math.round(performance.now() - started) }, 'upgraded to chunk streams: passages placed');
}

/** Keyword terms another analyzer wrote, analysed again from the passages before the indexer starts (app/keyword-reanalysis.ts). */
export async function reanalyseKeywordIndex(deps: Parameters<typeof reanalyseKeywords>[0], logger: Logger) {
  const started = performance.now();
  const report = await reanalyseKeywords(deps);
  if (report) logger.info({ ...report, ms: Math.round(performance.now() - started) }, 'keyword index analysed again with the current analyzer');
}
