import type { createVectorStoreBatches } from '../../app/services/vector-store-batches.ts';
import type { createVectorStoreSearch } from '../../app/services/vector-store-search.ts';
import type { VectorStoreService } from '../../app/services/vector-stores.ts';
import { Deleted, listOf } from '../../../schemas/http/common.ts';
import {
  FileBatch,
  FileBatchBody,
  VectorStore,
  VectorStoreCreateBody,
  VectorStoreFile,
  VectorStoreFileBody,
  VectorStoreFileContent,
  VectorStoreFileUpdateBody,
  VectorStoreFileListQuery,
  VectorStoreListQuery,
  VectorStoreSearchBody,
  VectorStoreSearchPage,
  VectorStoreUpdateBody,
} from '../../../schemas/http/openai-vector-stores.ts';
import { abortOnDisconnect } from '../client-abort.ts';
import { route } from '../route.ts';

export type VectorStoreRouteDeps = {
  stores: VectorStoreService;
  batches: ReturnType<typeof createVectorStoreBatches>;
  search: ReturnType<typeof createVectorStoreSearch>;
};

const tag = 'vector-stores';
const base = '/v1/vector_stores';
/** OpenAI's poll helpers wait this long between polls of a file or batch still in progress (5 s without it). */
const POLL_AFTER = { 'openai-poll-after-ms': '300' };
const pollHint = (status: string) => (status === 'in_progress' ? { headers: POLL_AFTER } : {});

/** OpenAI's Vector Stores API: a vector store is a knowledge base (same id), its files the knowledge base's documents. */
export function openAiVectorStoreRoutes({ stores, batches, search }: VectorStoreRouteDeps) {
  return [
    route({
      method: 'post',
      path: base,
      operationId: 'createVectorStore',
      summary: 'Create a vector store (a knowledge base), attaching `file_ids` as its documents',
      tag,
      scope: 'write',
      body: VectorStoreCreateBody,
      response: VectorStore,
      handle: async ({ principal, body, requestId }) => ({ body: await stores.create(principal, body, requestId) }),
    }),
    route({
      method: 'get',
      path: base,
      operationId: 'listVectorStores',
      summary: 'List vector stores: the knowledge bases the key may read',
      tag,
      scope: 'read',
      query: VectorStoreListQuery,
      response: listOf(VectorStore),
      handle: async ({ principal, query }) => ({ body: await stores.list(principal, query) }),
    }),
    route({
      method: 'get',
      path: `${base}/:vector_store_id`,
      operationId: 'getVectorStore',
      summary: 'Get a vector store: usage, file counts by status',
      tag,
      scope: 'read',
      response: VectorStore,
      handle: async ({ principal, params }) => ({ body: await stores.get(principal, params.vector_store_id) }),
    }),
    route({
      method: 'post',
      path: `${base}/:vector_store_id`,
      operationId: 'modifyVectorStore',
      summary: "Update a vector store's name, metadata or expiry",
      tag,
      scope: 'write',
      body: VectorStoreUpdateBody,
      response: VectorStore,
      handle: async ({ principal, params, body, requestId }) => ({ body: await stores.update(principal, params.vector_store_id, body, requestId) }),
    }),
    route({
      method: 'delete',
      path: `${base}/:vector_store_id`,
      operationId: 'deleteVectorStore',
      summary: 'Delete a vector store: its knowledge base and documents (the Files API files stay)',
      tag,
      scope: 'write',
      response: Deleted('vector_store.deleted'),
      handle: async ({ principal, params, requestId }) => ({ body: await stores.remove(principal, params.vector_store_id, requestId) }),
    }),
    route({
      method: 'post',
      path: `${base}/:vector_store_id/files`,
      operationId: 'createVectorStoreFile',
      summary: 'Attach a file: it becomes a document of the knowledge base, its attributes the metadata (the same bytes twice: the same document)',
      tag,
      scope: 'write',
      body: VectorStoreFileBody,
      response: VectorStoreFile,
      handle: async ({ principal, params, body, requestId }) => {
        const file = await stores.attach(principal, params.vector_store_id, body, requestId);
        return { body: file, ...pollHint(file.status) };
      },
    }),
    route({
      method: 'get',
      path: `${base}/:vector_store_id/files`,
      operationId: 'listVectorStoreFiles',
      summary: "List a vector store's files (filter: in_progress, completed, failed, cancelled)",
      tag,
      scope: 'read',
      query: VectorStoreFileListQuery,
      response: listOf(VectorStoreFile),
      handle: async ({ principal, params, query }) => ({ body: await stores.files(principal, params.vector_store_id, query) }),
    }),
    route({
      method: 'get',
      path: `${base}/:vector_store_id/files/:file_id`,
      operationId: 'getVectorStoreFile',
      summary: "A vector store's file: its status follows the document's (queued, parsing, indexing: in_progress; ready: completed; failed: failed with last_error)",
      tag,
      scope: 'read',
      response: VectorStoreFile,
      handle: async ({ principal, params }) => {
        const file = await stores.file(principal, params.vector_store_id, params.file_id);
        return { body: file, ...pollHint(file.status) };
      },
    }),
    route({
      method: 'post',
      path: `${base}/:vector_store_id/files/:file_id`,
      operationId: 'updateVectorStoreFileAttributes',
      summary: "Replace a file's attributes (its document's metadata): filters see them at once",
      tag,
      scope: 'write',
      body: VectorStoreFileUpdateBody,
      response: VectorStoreFile,
      handle: async ({ principal, params, body, requestId }) => ({
        body: await stores.updateAttributes(principal, params.vector_store_id, params.file_id, body.attributes ?? {}, requestId),
      }),
    }),
    route({
      method: 'get',
      path: `${base}/:vector_store_id/files/:file_id/content`,
      operationId: 'retrieveVectorStoreFileContent',
      summary: "A vector store file's text: its chunks in order",
      tag,
      scope: 'read',
      response: VectorStoreFileContent,
      handle: async ({ principal, params }) => ({ body: await stores.content(principal, params.vector_store_id, params.file_id) }),
    }),
    route({
      method: 'delete',
      path: `${base}/:vector_store_id/files/:file_id`,
      operationId: 'deleteVectorStoreFile',
      summary: 'Detach a file: its document is deleted, the Files API file stays',
      tag,
      scope: 'write',
      response: Deleted('vector_store.file.deleted'),
      handle: async ({ principal, params, requestId }) => ({ body: await stores.detach(principal, params.vector_store_id, params.file_id, requestId) }),
    }),
    route({
      method: 'post',
      path: `${base}/:vector_store_id/file_batches`,
      operationId: 'createVectorStoreFileBatch',
      summary: 'Attach several files at once (`file_ids` with shared attributes, or `files` each with its own)',
      tag,
      scope: 'write',
      body: FileBatchBody,
      response: FileBatch,
      handle: async ({ principal, params, body, requestId }) => {
        const shared = { ...(body.attributes && { attributes: body.attributes }), ...(body.chunking_strategy && { chunking_strategy: body.chunking_strategy }) };
        const files = body.files ?? body.file_ids!.map((file_id) => ({ file_id, ...shared }));
        const batch = await batches.create(principal, params.vector_store_id, files, requestId);
        return { body: batch, ...pollHint(batch.status) };
      },
    }),
    route({
      method: 'get',
      path: `${base}/:vector_store_id/file_batches/:batch_id`,
      operationId: 'getVectorStoreFileBatch',
      summary: "A file batch: its files' counts by status",
      tag,
      scope: 'read',
      response: FileBatch,
      handle: async ({ principal, params }) => {
        const batch = await batches.get(principal, params.vector_store_id, params.batch_id);
        return { body: batch, ...pollHint(batch.status) };
      },
    }),
    route({
      method: 'get',
      path: `${base}/:vector_store_id/file_batches/:batch_id/files`,
      operationId: 'listFilesInVectorStoreBatch',
      summary: "A file batch's files",
      tag,
      scope: 'read',
      query: VectorStoreFileListQuery,
      response: listOf(VectorStoreFile),
      handle: async ({ principal, params, query }) => ({ body: await batches.files(principal, params.vector_store_id, params.batch_id, query) }),
    }),
    route({
      method: 'post',
      path: `${base}/:vector_store_id/search`,
      operationId: 'searchVectorStore',
      summary: "Search a vector store: OpenAI's filters over attributes, max_num_results, ranking_options, rewrite_query",
      tag,
      scope: 'read',
      load: 'query',
      body: VectorStoreSearchBody,
      response: VectorStoreSearchPage,
      handle: async ({ principal, params, body, ctx }) => {
        const aborted = abortOnDisconnect(ctx);
        return { body: await search(principal, params.vector_store_id, body, aborted.signal) };
      },
    }),
  ];
}
