import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kafka, logLevel } from 'kafkajs';
import { pdf } from '../unit/parsing-pdf-fixtures.ts';
import { freePort, killGroup, run, type Started, waitForOutput } from './process.ts';

/**
 * The mixed profile in separate processes (docs/deployment.md, "The mixed profile"): an owner
 * (`kbqa serve`) and parse workers (`kbqa serve --role worker`) on one data directory and one
 * broker, each started as a user would, from bin/kbqa.js.
 */
export type MixedProcess = Started & { port: number; url: string };

export const PARSER_GROUP_NAMES = ['parser', 'parser-small'];

/**
 * The environment of an owner or worker on `dataDir`: one parser thread and no query processes,
 * so each process is one parser and the figures compare processes, not threads.
 */
export const mixedProcessEnv = (dataDir: string, adminKey: string, more: Record<string, string> = {}): Record<string, string> => ({
  KBQA_DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  KBQA_ADMIN_KEY: adminKey,
  KBQA_LOG_LEVEL: 'warn',
  KBQA_RATE_LIMIT_PER_MINUTE: '0',
  KBQA_PARSER_THREADS: '1',
  KBQA_QUERY_PROCESSES: '0',
  ...more,
});

export async function startOwner(env: Record<string, string>): Promise<MixedProcess> {
  const port = await freePort();
  const started = run('node', ['bin/kbqa.js', 'serve'], { ...env, PORT: String(port) });
  await waitForOutput(started, /KBQA listening/, 60_000);
  return { ...started, port, url: `http://127.0.0.1:${port}` };
}

export async function startWorker(env: Record<string, string>): Promise<MixedProcess> {
  const port = await freePort();
  const started = run('node', ['bin/kbqa.js', 'serve', '--role', 'worker'], { ...env, PORT: String(port) });
  await waitForOutput(started, /KBQA worker running/, 60_000);
  return { ...started, port, url: `http://127.0.0.1:${port}` };
}

/** Waits until each parser group has `members` members, all with partitions, and is stable. */
export async function groupsSettled(brokers: string, namespace: string, members: number, timeoutMs = 60_000): Promise<void> {
  const admin = new Kafka({ clientId: 'kbqa-test-parse-workers', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { groups } = await admin.describeGroups(PARSER_GROUP_NAMES.map((name) => `${namespace}kbqa.${name}`));
      if (groups.every((g) => g.state === 'Stable' && g.members.length === members && g.members.every((m) => m.memberAssignment.length > 0))) return;
      if (Date.now() > deadline) throw new Error(`parser groups not settled with ${members} members: ${groups.map((g) => `${g.groupId} ${g.state} ${g.members.length}`).join('; ')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await admin.disconnect();
  }
}

/** Removes a run's topics and consumer groups from the shared broker (best effort). */
export async function dropNamespace(brokers: string, namespace: string): Promise<void> {
  const admin = new Kafka({ clientId: 'kbqa-test-parse-workers', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(namespace));
    const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(namespace));
    await admin.deleteGroups(groups).catch(() => {});
    if (topics.length > 0) await admin.deleteTopics({ topics }).catch(() => {});
  } finally {
    await admin.disconnect();
  }
}

/** Documents a process parsed (kbqa_documents_parsed_total, both lanes). */
export async function parsedBy(process: MixedProcess, lane = '\\w+'): Promise<number> {
  const text = await (await fetch(`${process.url}/metrics`)).text();
  const line = new RegExp(`^kbqa_documents_parsed_total\\{lane="${lane}"\\} (\\d+)$`, 'gm');
  return [...text.matchAll(line)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** A PDF of `pages` pages of text no other call makes (the same bytes twice would be one document). */
export const textPdf = (label: string, pages: number) =>
  pdf((doc) => {
    for (let p = 1; p <= pages; p++) {
      if (p > 1) doc.addPage();
      const sentences = Array.from({ length: 28 }, (_, s) => `In ${label}, page ${p} sentence ${s} describes harbour ${(p * 31 + s) % 17} and its ferries.`);
      doc.font('Helvetica').fontSize(10).text(sentences.join(' '), 60, 60, { width: 480 });
    }
  });

/** Stops a process with SIGTERM; one still running after `graceMs` is killed, and false says so. */
export async function stop(process: Started, graceMs = 20_000): Promise<boolean> {
  if (process.child.exitCode !== null || process.child.signalCode !== null) return true;
  killGroup(process, 'SIGTERM');
  const stopped = await Promise.race([process.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), graceMs))]);
  if (!stopped) {
    killGroup(process, 'SIGKILL');
    await process.exited;
  }
  return stopped;
}

/**
 * What the log and the indexes hold for the given documents, read from the data directory: each
 * document's parses and indexings, and any chunk indexed twice.
 */
export function ledger(dataDir: string, documentIds: readonly string[]) {
  const db = new Database(join(dataDir, 'kbqa.db'), { readonly: true });
  try {
    const count = db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM events WHERE stream_id = ? AND type = ?');
    const perDocument = documentIds.map((id) => ({
      id,
      parsed: count.get(`document-${id}`, 'DocumentParsed')!.n,
      indexed: count.get(`document-${id}`, 'DocumentIndexed')!.n,
    }));
    const distinct = (table: string) => db.prepare(`SELECT count(*) AS n, count(DISTINCT chunk_id) AS d FROM ${table}`).get() as { n: number; d: number };
    const chunks = db.prepare("SELECT coalesce(sum(json_extract(data, '$.chunk_count')), 0) FROM events WHERE type = 'DocumentParsed'").pluck().get() as number;
    const passages = db.prepare('SELECT count(*) FROM passages').pluck().get() as number;
    return { perDocument, keyword: distinct('keyword_chunks'), vectors: distinct('vector_chunks'), chunks, passages };
  } finally {
    db.close();
  }
}
