import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * `kbqa demo` loads the sample documents (samples/) into a knowledge base named "demo" through
 * the HTTP API of a running server. It talks HTTP rather than opening the data directory like
 * `kbqa keys create` does: the server holds the vector and keyword indexes in its memory and its
 * own parser and indexer consume the uploads, so a second process writing documents would either
 * index into memory nobody queries or race the server's consumers.
 */
export type DemoOptions = { url: string; key: string; timeoutMs: number; say: (line: string) => void };
type Doc = { id: string; name: string; status: string; chunk_count?: number | null; error?: { message: string } | null };
type Listing<T> = { data: T[]; has_more: boolean; last_id: string | null };

export const DEMO_KNOWLEDGE_BASE = 'demo';
export const SAMPLES_DIR = fileURLToPath(new URL('../../samples/', import.meta.url));
const SETTLED = new Set(['ready', 'failed']);

export async function loadDemo(options: DemoOptions): Promise<{ knowledgeBaseId: string; documents: Doc[] }> {
  const api = client(options);
  const kb = (await findKnowledgeBase(api)) ?? (await api<{ id: string }>('POST', '/v1/knowledge-bases', { name: DEMO_KNOWLEDGE_BASE, description: 'The Zephyr-9 sample documents (kbqa demo)' }));
  options.say(`Knowledge base '${DEMO_KNOWLEDGE_BASE}': ${kb.id}`);
  const present = new Set((await listAll<Doc>(api, `/v1/knowledge-bases/${kb.id}/documents`)).map((d) => d.name));
  const missing = readdirSync(SAMPLES_DIR).filter((name) => !present.has(name)).sort();
  if (missing.length > 0) {
    const form = new FormData();
    for (const name of missing) form.append('file', new Blob([new Uint8Array(readFileSync(`${SAMPLES_DIR}${name}`))]), name);
    await api('POST', `/v1/knowledge-bases/${kb.id}/documents`, form);
    options.say(`Uploaded ${missing.join(', ')}; parsing and indexing …`);
  }
  const documents = await settle(api, kb.id, options.timeoutMs);
  for (const d of documents) {
    const detail = d.status === 'ready' ? `${d.chunk_count ?? 0} chunk${d.chunk_count === 1 ? '' : 's'}` : (d.error?.message ?? '');
    options.say(`  ${d.name.padEnd(22)} ${d.status} (${detail})`);
  }
  return { knowledgeBaseId: kb.id, documents };
}

type Api = <T>(method: string, path: string, body?: unknown) => Promise<T>;

function client({ url, key }: DemoOptions): Api {
  return async <T>(method: string, path: string, body?: unknown) => {
    const json = body !== undefined && !(body instanceof FormData);
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(json && { 'content-type': 'application/json' }) },
      body: json ? JSON.stringify(body) : (body as FormData | undefined),
    }).catch((error: unknown) => {
      throw new Error(`no KBQA server answers on ${url} (start one with: npm start): ${error instanceof Error ? error.message : String(error)}`);
    });
    const answer = (await response.json()) as { error?: { message: string } };
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${answer.error?.message ?? ''}`);
    return answer as T;
  };
}

async function listAll<T extends { id: string }>(api: Api, path: string): Promise<T[]> {
  const all: T[] = [];
  for (let after = ''; ; ) {
    const page = await api<Listing<T>>('GET', `${path}?limit=100${after && `&after=${after}`}`);
    all.push(...page.data);
    if (!page.has_more || !page.last_id) return all;
    after = page.last_id;
  }
}

async function findKnowledgeBase(api: Api) {
  return (await listAll<{ id: string; name: string }>(api, '/v1/knowledge-bases')).find((kb) => kb.name === DEMO_KNOWLEDGE_BASE);
}

async function settle(api: Api, kbId: string, timeoutMs: number): Promise<Doc[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const documents = await listAll<Doc>(api, `/v1/knowledge-bases/${kbId}/documents`);
    if (documents.every((d) => SETTLED.has(d.status))) return documents.sort((a, b) => a.name.localeCompare(b.name));
    if (Date.now() > deadline) throw new Error(`documents still being processed after ${timeoutMs / 1000} s: ${documents.filter((d) => !SETTLED.has(d.status)).map((d) => d.name).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** What to try next, with the real id; the key stays in the reader's shell variable. */
export function demoHints(url: string, kbId: string): string[] {
  const auth = `-H "Authorization: Bearer $KEY" -H 'Content-Type: application/json'`;
  return [
    '',
    'Ask it (with your API key in $KEY):',
    `  curl -s ${url}/v1/knowledge-bases/${kbId}/search ${auth} \\`,
    `       -d '{"query":"How long is a Zephyr-9 blade?","top_k":3}'`,
    `  curl -s ${url}/v1/chat/completions ${auth} \\`,
    `       -d '{"model":"kbqa-extractive","knowledge_base_id":"${kbId}","messages":[{"role":"user","content":"How often does a Zephyr-9 need a service?"}]}'`,
    '',
  ];
}
