import { z } from 'zod';
import { badRequest } from '../../app/errors.ts';
import { type FileService, presentFile } from '../../app/services/files.ts';
import { FILE_PURPOSES, FileDeleted, FileListQuery, FilePurpose, OpenAiFile } from '../../../schemas/http/openai-files.ts';
import { listOf } from '../../../schemas/http/common.ts';
import { receiveMultipart } from '../multipart.ts';
import { route } from '../route.ts';
import { parseOr400 } from '../validate.ts';
import type { DocumentRouteDeps } from './documents.ts';

const tag = 'files';

/** OpenAI's Files API: workspace-level uploads that vector stores then attach (openai-vector-stores.ts). */
export function openAiFileRoutes(files: FileService, upload: Pick<DocumentRouteDeps, 'blobs' | 'maxUploadBytes' | 'bodyPace' | 'detectMediaType'>) {
  return [
    route({
      method: 'post',
      path: '/v1/files',
      operationId: 'createFile',
      summary: 'Upload a file (OpenAI Files API): multipart `file` and `purpose`',
      tag,
      scope: 'write',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file', 'purpose'],
              properties: { file: { type: 'string', format: 'binary', description: 'Not empty' }, purpose: { type: 'string', enum: [...FILE_PURPOSES] } },
            },
          },
        },
      },
      response: OpenAiFile,
      handle: async ({ ctx, principal, requestId }) => {
        const limits = { maxFileBytes: upload.maxUploadBytes, maxFiles: 1 };
        const { files: received, fields } = await receiveMultipart(ctx, upload.blobs, limits, upload.bodyPace);
        const { purpose } = parseOr400(z.object({ purpose: FilePurpose }), fields);
        const file = received[0];
        if (!file) throw badRequest('missing_required_parameter', 'file: a multipart part holding the file is required', 'file');
        // Refused now rather than stored: an empty file becomes no document once a vector store attaches it.
        if (file.sizeBytes === 0) throw badRequest('empty_file', `file: '${file.name}' is empty (0 bytes); upload a file with content`, 'file');
        const local = await upload.blobs.localPath(file.sha256);
        const detected = await upload.detectMediaType(local!.path, file.name);
        await local!.release();
        // Any bytes are a file (a batch's JSONL too); whether a parser reads them matters only when a vector store attaches it.
        const mediaType = detected.ok ? detected.mediaType : 'application/octet-stream';
        return { body: await files.upload(principal, { filename: file.name, sha256: file.sha256, bytes: file.sizeBytes, mediaType }, purpose, requestId) };
      },
    }),
    route({
      method: 'get',
      path: '/v1/files',
      operationId: 'listFiles',
      summary: 'List files (OpenAI Files API), newest first; filter by purpose',
      tag,
      scope: 'read',
      query: FileListQuery,
      response: listOf(OpenAiFile),
      handle: async ({ principal, query }) => ({ body: await files.list(principal, query, query.purpose) }),
    }),
    route({
      method: 'get',
      path: '/v1/files/:file_id',
      operationId: 'retrieveFile',
      summary: 'Get a file (OpenAI Files API)',
      tag,
      scope: 'read',
      response: OpenAiFile,
      handle: async ({ principal, params }) => ({ body: presentFile(await files.get(principal, params.file_id)) }),
    }),
    route({
      method: 'get',
      path: '/v1/files/:file_id/content',
      operationId: 'downloadFile',
      summary: "A file's bytes as uploaded",
      tag,
      scope: 'read',
      mediaType: 'application/octet-stream',
      handle: async ({ principal, params }) => {
        const { doc, stream } = await files.content(principal, params.file_id);
        // As OpenAI serves it: the bytes, whatever their type.
        return { headers: { 'content-type': 'application/octet-stream', 'content-length': String(doc.bytes) }, body: stream };
      },
    }),
    route({
      method: 'delete',
      path: '/v1/files/:file_id',
      operationId: 'deleteFile',
      summary: 'Delete a file, and the documents it became in vector stores (unless another file holds the same bytes)',
      tag,
      scope: 'write',
      response: FileDeleted,
      handle: async ({ principal, params, requestId }) => ({ body: await files.remove(principal, params.file_id, requestId) }),
    }),
  ];
}
