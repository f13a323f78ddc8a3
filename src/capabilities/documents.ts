import { contentClaimEvents, documentChunkEvents, documentEvents, idempotencyEvents } from '../../schemas/events/document.ts';
import { documentsProjection } from '../../projections/documents/index.ts';
import { indexerConsumer } from '../../consumers/indexer/index.ts';
import { PARSER_GROUPS, parserConsumer } from '../../consumers/parser/index.ts';
import { chunkStreamDecider } from '../domain/document/chunk-stream.ts';
import { contentClaimDecider } from '../domain/document/content-claim.ts';
import { documentDecider } from '../domain/document/document.ts';
import { idempotencyDecider } from '../domain/document/idempotency.ts';
import { type ParseLane, SMALL_LANE_PARSES } from '../domain/document/parse-lane.ts';
import { documentRoutes } from '../http/routes/documents.ts';
import type { AppContext } from '../app/context.ts';
import { defineCapability, type WorkerDeps } from './capability.ts';

export type ParserGroupDeps = Pick<WorkerDeps, 'blobs' | 'parsers' | 'detectMediaType' | 'feed' | 'limits' | 'maxUploadBytes' | 'parseTimeoutMs' | 'parseConcurrency' | 'logger' | 'onParsed'> & { ctx: AppContext };

/**
 * Two groups over the same uploads, each parsing its own lane: a long scan never holds up a small
 * file. A parse worker of the mixed profile runs these alone (composition/parse-worker.ts).
 */
export function parserGroups(deps: ParserGroupDeps) {
  const parser = (lane: ParseLane, concurrency: number) =>
    parserConsumer({
      lane,
      ctx: deps.ctx,
      blobs: deps.blobs,
      parser: deps.parsers[lane],
      detectMediaType: deps.detectMediaType,
      feed: deps.feed,
      limits: deps.limits,
      maxUploadBytes: deps.maxUploadBytes,
      timeoutMs: deps.parseTimeoutMs,
      concurrency,
      logger: deps.logger,
      onParsed: deps.onParsed,
    });
  return { [PARSER_GROUPS.large]: parser('large', deps.parseConcurrency), [PARSER_GROUPS.small]: parser('small', SMALL_LANE_PARSES) };
}

export const documents = defineCapability({
  name: 'documents',
  summary: 'Upload, parse, slice, index, list and delete the documents of a knowledge base.',
  events: { ...documentEvents, ...documentChunkEvents, ...contentClaimEvents, ...idempotencyEvents },
  deciders: [documentDecider, chunkStreamDecider, contentClaimDecider, idempotencyDecider],
  projections: [documentsProjection],
  consumers: (deps) => ({
    ...parserGroups({ ...deps, ctx: deps.services.ctx }),
    indexer: indexerConsumer({ ctx: deps.services.ctx, embedders: deps.embedders, workspaceModels: deps.services.workspaceModels, ...deps.indexes, feed: deps.feed, logger: deps.logger }),
  }),
  routes: ({ services, settings }) =>
    documentRoutes(
      {
        documents: services.documents,
        blobs: settings.blobs,
        detectMediaType: settings.detectMediaType,
        maxUploadBytes: settings.maxUploadBytes,
        maxFilesPerUpload: settings.maxFilesPerUpload,
        events: { readModels: services.ctx.readModels, feed: settings.feed },
        feed: { store: services.ctx.store, projections: services.ctx.projections, feed: settings.feed, waitMs: services.ctx.consistencyTimeoutMs },
        bodyPace: settings.bodyPace,
      },
      settings.onServerError,
    ),
});
