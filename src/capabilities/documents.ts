/**
 * Documents: upload, parse, slice, index, list, delete. A capability's parts live in the layer
 * each belongs to (docs/architecture.md); this index names them, so a newcomer finds them by the capability.
 */
export { contentClaimEvents, documentChunkEvents, documentEvents, idempotencyEvents } from '../../schemas/events/document.ts';
export { TextUploadBody, Document, Chunk } from '../../schemas/http/documents.ts';
export { documentDecider } from '../domain/document/document.ts';
export { chunkStreamDecider } from '../domain/document/chunk-stream.ts';
export { contentClaimDecider } from '../domain/document/content-claim.ts';
export { idempotencyDecider } from '../domain/document/idempotency.ts';
export { chunkBlocks } from '../domain/document/chunker.ts';
export { documentsProjection } from '../../projections/documents/index.ts';
export { createDocumentService } from '../app/services/documents.ts';
export { documentRoutes } from '../http/routes/documents.ts';
export { parserConsumer } from '../../consumers/parser/index.ts';
export { indexerConsumer } from '../../consumers/indexer/index.ts';
