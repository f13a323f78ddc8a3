// Question answering over the real documents of ../shared/data/docs: one knowledge base with default
// settings, every file the question set names uploaded, each question asked through chat and scored
// (fact in the answer, cited file and page; uncovered questions must be refused).
//   node --import tsx bench/eval-docs.ts      prints the JSON report; failures go to stderr
import { join } from 'node:path';
import pMap from 'p-map';
import { pathToFileURL } from 'node:url';
import { DOCS_DIR, hasDocs, loadQuestions, referencedFiles, type DocsQuestion } from './docs-questions.ts';
import { failureLines, report, type Scored } from './docs-report.ts';
import { score, usedCitations, type ChatReply } from './docs-scoring.ts';
import { evalKbSettings, json, settleAll, uploadFile, withKbqa, type Api } from './kbqa-api.ts';
import { log, machineInfo, round } from './util.ts';

const CONCURRENCY = 2;

/** Uploads every file; a file the service refuses at upload is recorded, not fatal. */
async function uploadAll(api: Api, kb: string, files: string[]) {
  const status: Record<string, string> = {};
  let accepted = 0;
  for (const file of files) {
    try {
      await uploadFile(api, kb, join(DOCS_DIR, file));
      accepted++;
    } catch (error) {
      status[file] = `upload rejected: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return { status, accepted };
}

async function ask(api: Api, kb: string, q: DocsQuestion): Promise<ChatReply> {
  const res = await json(api, 'POST', '/v1/chat/completions', {
    model: 'kbqa-extractive',
    knowledge_base_id: kb,
    messages: [{ role: 'user', content: q.question }],
  });
  return { content: res.choices?.[0]?.message?.content ?? res.content ?? '', citations: res.citations ?? [], answerable: res.answerable };
}

function askAll(api: Api, kb: string, questions: DocsQuestion[]): Promise<Scored[]> {
  return pMap(
    questions,
    async (q): Promise<Scored> => {
      const reply = await ask(api, kb, q);
      const cited = usedCitations(reply).map((c) => ({ source: c.source ?? c.name ?? '?', page: c.page ?? null }));
      return { q, verdict: score(q, reply), answer: reply.content, cited };
    },
    { concurrency: CONCURRENCY },
  );
}

export async function runDocsSuite(): Promise<object> {
  if (!hasDocs()) return { skipped: 'needs ../shared/data/docs' };
  const questions = loadQuestions();
  const files = referencedFiles(questions);
  return withKbqa('eval-docs', async (api, pid) => {
    const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'docs-eval', settings: evalKbSettings() })).id as string;
    const t0 = performance.now();
    const { status, accepted } = await uploadAll(api, kb, files);
    const { failed, peakRssMb } = await settleAll(api, kb, accepted, pid);
    for (const f of failed) {
      const file = files.find((p) => p.endsWith(`/${f.name}`)) ?? f.name;
      status[file] = `failed: ${JSON.stringify(f.error)}`;
    }
    for (const file of files) status[file] ??= 'ready';
    const ingestSeconds = round((performance.now() - t0) / 1000, 1);
    log(`eval-docs: ${files.length} files settled in ${ingestSeconds} s (${failed.length} failed)`);
    const started = performance.now();
    const rows = await askAll(api, kb, questions);
    for (const line of failureLines(rows)) process.stderr.write(`${line}\n`);
    return {
      suite: 'docs',
      questions: questions.length,
      files: files.length,
      ingest_seconds: ingestSeconds,
      ask_seconds: round((performance.now() - started) / 1000, 1),
      peak_rss_mb: peakRssMb,
      ...report(rows, status),
    };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runDocsSuite()
    .then((result) => process.stdout.write(`${JSON.stringify({ machine: machineInfo(), ...result }, null, 2)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`eval-docs failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
}
