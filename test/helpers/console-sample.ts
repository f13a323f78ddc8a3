import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { settledDocument, uploadFiles } from './documents.ts';
import type { TestServer } from './server.ts';

export const SAMPLE_PDF = 'zephyr-9.pdf';

/** A knowledge base holding samples/zephyr-9.pdf, uploaded as multipart through the API and ready. */
export async function sampleKnowledgeBaseWithPdf(server: TestServer): Promise<{ kbId: string; documentId: string }> {
  const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'Zephyr manuals' } });
  const upload = await uploadFiles(server, kb.id, [{ name: SAMPLE_PDF, bytes: readFileSync(join(process.cwd(), 'samples', SAMPLE_PDF)), type: 'application/pdf' }]);
  const documentId = upload.body.data[0].id as string;
  const doc = await settledDocument(server, kb.id, documentId, 120_000);
  if (doc.status !== 'ready') throw new Error(`sample ${SAMPLE_PDF} ${doc.status}: ${JSON.stringify(doc.error)}`);
  return { kbId: kb.id, documentId };
}

/** A key with the read scope only. */
export async function readKey(server: TestServer): Promise<string> {
  const { body } = await server.call('POST', '/v1/api-keys', { json: { name: 'reader', scopes: ['read'] } });
  return body.secret as string;
}
