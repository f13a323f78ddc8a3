import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { peakRssMb, startKbqa, stopChild, waitFor } from './server-process.ts';
import { freePort, withTempDir } from './util.ts';

/** Where a running service answers, and the admin key's header. */
export type Api = { base: string; headers: Record<string, string> };

/**
 * The knowledge-base settings the QA suites (docs, SQuAD 2.0, XQuAD) create theirs with:
 * `KBQA_EVAL_EMBEDDING_MODEL=local/all-minilm-l6-v2 npm run eval -- docs squad2 xquad` measures them
 * with another embedding model (SciFact has modes of its own for MiniLM, beside the default).
 */
export const evalKbSettings = (): Record<string, string> => (process.env.KBQA_EVAL_EMBEDDING_MODEL ? { embedding_model: process.env.KBQA_EVAL_EMBEDDING_MODEL } : {});

/** Where the served local models are: the repository's models/ (npm run models:fetch), not beside the temp data dir. */
const MODELS_DIR = process.env.KBQA_MODELS_DIR ?? fileURLToPath(new URL('../models', import.meta.url));

export async function json(api: Api, method: string, path: string, body?: unknown) {
  const res = await fetch(api.base + path, { method, headers: { ...api.headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = (await res.json()) as any;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

export async function uploadFile(api: Api, kb: string, path: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(readFileSync(path))]), path.split('/').pop()!);
  const res = await fetch(`${api.base}/v1/knowledge-bases/${kb}/documents`, { method: 'POST', headers: api.headers, body: form });
  const parsed = (await res.json()) as any;
  if (!res.ok) throw new Error(`upload ${path.split('/').pop()}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed.data[0].id as string;
}

/** Uploads texts with `clients` concurrent uploaders. */
export async function uploadTexts(api: Api, kb: string, docs: { name: string; text: string }[], clients = 16) {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < docs.length) {
        const doc = docs[next++]!;
        await json(api, 'POST', `/v1/knowledge-bases/${kb}/documents`, doc);
      }
    }),
  );
}

/** Polls the list until every document of the knowledge base is ready or failed; samples peak memory meanwhile. */
export async function settleAll(api: Api, kb: string, expected: number, pid: number, timeoutMs = 1_800_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let done = 0;
    const failed: { name: string; error: unknown }[] = [];
    let after: string | undefined;
    do {
      const page = await json(api, 'GET', `/v1/knowledge-bases/${kb}/documents?limit=100&order=asc${after ? `&after=${after}` : ''}`);
      done += page.data.filter((d: any) => d.status === 'ready' || d.status === 'failed').length;
      failed.push(...page.data.filter((d: any) => d.status === 'failed').map((d: any) => ({ name: d.name, error: d.error })));
      after = page.has_more ? page.last_id : undefined;
    } while (after);
    if (done >= expected) return { failed, peakRssMb: peakRssMb(pid) };
    if (Date.now() > deadline) throw new Error(`only ${done}/${expected} documents settled`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The real service in its own process over a temp data dir, ready before `fn` runs; `KBQA_BENCH_ROOT` serves another checkout (an older commit, to compare). */
export async function withKbqa<T>(label: string, fn: (api: Api, pid: number) => Promise<T>, env: Record<string, string> = {}, root = process.env.KBQA_BENCH_ROOT): Promise<T> {
  return withTempDir(label, async (dataDir) => {
    const child = await startKbqa(dataDir, await freePort(), { KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_MODELS_DIR: MODELS_DIR, ...env }, root);
    try {
      await waitFor(child, `${child.base}/readyz`);
      return await fn({ base: child.base, headers: child.headers }, child.proc.pid!);
    } finally {
      await stopChild(child);
    }
  });
}
