import type { TestServer } from './server.ts';

export type UploadPart = { name: string; bytes: Buffer | string; type?: string };

/** Multipart upload through the real endpoint. */
export async function uploadFiles(
  server: TestServer,
  kbId: string,
  parts: UploadPart[],
  fields: Record<string, string> = {},
  { headers = {}, key = 'test-admin-key-0123456789abcdef' }: { headers?: Record<string, string>; key?: string } = {},
) {
  const form = new FormData();
  for (const p of parts) form.append('file', new Blob([typeof p.bytes === 'string' ? p.bytes : new Uint8Array(p.bytes)], { type: p.type ?? 'application/octet-stream' }), p.name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const response = await fetch(`${server.url}/v1/knowledge-bases/${kbId}/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...headers },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
}

/** Polls a document until it is ready or failed. */
export async function settledDocument(server: TestServer, kbId: string, documentId: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await server.call('GET', `/v1/knowledge-bases/${kbId}/documents/${documentId}`);
    if (body.status === 'ready' || body.status === 'failed') return body;
    if (Date.now() > deadline) throw new Error(`document ${documentId} still ${body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function allChunks(server: TestServer, kbId: string, documentId: string): Promise<any[]> {
  const { body } = await server.call('GET', `/v1/knowledge-bases/${kbId}/documents/${documentId}/chunks?limit=1000`);
  return body.data;
}

/** One file posted to OpenAI's Files API (`POST /v1/files`), as multipart: the raw response. */
export function postFile(url: string, key: string, { name, bytes, purpose = 'assistants', type = 'text/markdown' }: { name: string; bytes: string; purpose?: string; type?: string }) {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', new Blob([bytes], { type }), name);
  return fetch(`${url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
}

/** The same, for a test's setup: the new file's id, or an error naming the answer. */
export async function uploadedFileId(url: string, key: string, name: string, text: string): Promise<string> {
  const res = await postFile(url, key, { name, bytes: text });
  const body = (await res.json()) as { id: string };
  if (res.status !== 200) throw new Error(`POST /v1/files: ${res.status} ${JSON.stringify(body)}`);
  return body.id;
}
