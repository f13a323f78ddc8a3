import { contentClaimEvents, documentChunkEvents, documentEvents, idempotencyEvents, nameClaimEvents } from '../../schemas/events/document.ts';
import { documentsProjection } from '../../projections/documents/index.ts';
import { indexerConsumer } from '../../consumers/indexer/index.ts';
import { parserGroups } from '../../consumers/parser/groups.ts';
import { chunkStreamDecider } from '../domain/document/chunk-stream.ts';
import { contentClaimDecider } from '../domain/document/content-claim.ts';
import { documentDecider } from '../domain/document/document.ts';
import { idempotencyDecider } from '../domain/document/idempotency.ts';
import { documentRoutes } from '../http/routes/documents.ts';
import { defineCapability } from './capability.ts';

export const documents = defineCapability({
  name: 'documents',
  summary: 'Upload, parse, slice, index, list and delete the documents of a knowledge base.',
  events: { ...documentEvents, ...documentChunkEvents, ...contentClaimEvents, ...nameClaimEvents, ...idempotencyEvents },
  deciders: [documentDecider, chunkStreamDecider, contentClaimDecider, idempotencyDecider],
  projections: [documentsProjection],
  consumers: (deps) => ({
    ...parserGroups({
      ...{ ctx: deps.services.ctx, blobs: deps.blobs, parsers: deps.parsers, detectMediaType: deps.detectMediaType, feed: deps.feed, limits: deps.limits },
      ...{ maxUploadBytes: deps.maxUploadBytes, parseTimeoutMs: deps.parseTimeoutMs, parseConcurrency: deps.parseConcurrency, logger: deps.logger, onParsed: deps.onParsed },
    }),
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
