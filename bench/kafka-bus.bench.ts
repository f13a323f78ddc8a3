import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { type Api, json, settleAll, uploadTexts, withKbqa } from './kbqa-api.ts';
import { log, round } from './util.ts';

/**
 * The mixed profile (embedded store, Kafka bus) against the embedded one on the same uploads, and
 * the consumer groups' lag after a burst. Each run takes a fresh KAFKA_NAMESPACE, so its topics
 * and groups are its own on a broker that tests may be using.
 */
const CLIENTS = 16;
const UPLOAD_DOCS = Number(process.env.KBQA_BENCH_KAFKA_DOCS ?? 300);
const BURST_DOCS = 1000;
const RATIO_GOAL = 1.3;
const GROUPS = ['parser', 'parser-small', 'indexer', 'runner', 'projector'];

const WORDS = 'basalt caldera magma plume vent ash glacier fjord moraine delta estuary tide reef lagoon atoll dune mesa butte canyon gorge'.split(' ');

/** Small text documents (a few sentences each), the same for every run. */
function smallTexts(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const sentences = Array.from({ length: 6 }, (_, s) => {
      const words = Array.from({ length: 12 }, (_, w) => WORDS[(i * 7 + s * 3 + w * 5) % WORDS.length]);
      return `Document ${i} sentence ${s} mentions ${words.join(' ')}.`;
    });
    return { name: `note-${i}.txt`, text: sentences.join(' ') };
  });
}

const brokersFromEnv = () => process.env.KAFKA_BROKERS?.split(',').map((b) => b.trim());
const skip = { pass: true, skipped: 'KAFKA_BROKERS not set; run `npm run kafka:up` and export the line it prints' };

/**
 * A fresh mixed-profile server answers /readyz before its projector (a Kafka consumer group that
 * has just joined) has applied the admin key's ApiKeyCreated, so its first calls can get 401.
 */
async function untilAuthenticated(api: Api, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${api.base}/v1/knowledge-bases`, { headers: api.headers });
    await res.arrayBuffer();
    if (res.status !== 401) return;
    if (Date.now() > deadline) throw new Error(`the admin key is still refused after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Seconds from the first upload to every document ready. */
async function uploadToReady(api: Api, pid: number, docs: { name: string; text: string }[]) {
  await untilAuthenticated(api);
  const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'kafka-bench' })).id;
  const started = performance.now();
  await uploadTexts(api, kb, docs, CLIENTS);
  const { failed } = await settleAll(api, kb, docs.length, pid, 600_000);
  return { seconds: (performance.now() - started) / 1000, failed: failed.length, kb };
}

const mixedEnv = (brokers: string[], namespace: string) => ({ KAFKA_BROKERS: brokers.join(','), KAFKA_NAMESPACE: namespace, KAFKA_TOPIC_PARTITIONS: '6' });
// An empty variable is unset (config.ts): the embedded run must not inherit the bench's KAFKA_BROKERS.
const embeddedEnv = { KAFKA_BROKERS: '' };

/** The same small documents to ready, in-process bus and Kafka bus, alternated twice. */
export async function kafkaUploadToReadyBench() {
  const brokers = brokersFromEnv();
  if (!brokers) return skip;
  const docs = smallTexts(UPLOAD_DOCS);
  const runs: { bus: string; seconds: number; failed: number }[] = [];
  for (let round_ = 0; round_ < 2; round_++) {
    for (const bus of ['in-process', 'kafka'] as const) {
      const env = bus === 'kafka' ? mixedEnv(brokers, `bench-${randomUUID().slice(0, 8)}.`) : embeddedEnv;
      const { seconds, failed } = await withKbqa('kafka-upload', (api, pid) => uploadToReady(api, pid, docs), env);
      log(`kafka_upload_to_ready: ${bus} ${docs.length} documents ready in ${round(seconds, 2)} s (${failed} failed)`);
      runs.push({ bus, seconds: round(seconds, 2), failed });
    }
  }
  const best = (bus: string) => Math.min(...runs.filter((r) => r.bus === bus).map((r) => r.seconds));
  const ratio = round(best('kafka') / best('in-process'), 2);
  return { documents: docs.length, clients: CLIENTS, runs, best_in_process_s: best('in-process'), best_kafka_s: best('kafka'), ratio, ratio_goal: RATIO_GOAL, pass: ratio <= RATIO_GOAL && runs.every((r) => r.failed === 0) };
}

/** Events behind per group: the topics' high watermarks minus the group's committed offsets. */
async function lagByGroup(admin: Admin, namespace: string): Promise<Record<string, number>> {
  const lags: Record<string, number> = {};
  for (const group of GROUPS) {
    const groupId = `${namespace}kbqa.${group}`;
    const committed = await admin.fetchOffsets({ groupId });
    let lag = 0;
    for (const { topic, partitions } of committed) {
      const ends = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]));
      for (const { partition, offset } of partitions) lag += (ends.get(partition) ?? 0) - Math.max(0, Number(offset));
    }
    lags[group] = lag;
  }
  return lags;
}

/** A burst of 1,000 small documents to the mixed profile: the largest lag each group reached, and the time until all are back to zero. */
export async function kafkaLagBurstBench() {
  const brokers = brokersFromEnv();
  if (!brokers) return skip;
  const namespace = `bench-${randomUUID().slice(0, 8)}.`;
  const kafka = new Kafka({ clientId: 'kbqa-bench-lag', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await withKbqa(
      'kafka-lag',
      async (api, pid) => {
        await untilAuthenticated(api);
        const kb = (await json(api, 'POST', '/v1/knowledge-bases', { name: 'burst' })).id;
        const peak: Record<string, number> = Object.fromEntries(GROUPS.map((g) => [g, 0]));
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            const lags = await lagByGroup(admin, namespace).catch(() => null);
            for (const [group, lag] of Object.entries(lags ?? {})) peak[group] = Math.max(peak[group]!, lag);
            await new Promise((r) => setTimeout(r, 250));
          }
        })();
        const started = performance.now();
        await uploadTexts(api, kb, smallTexts(BURST_DOCS), CLIENTS);
        const acceptedS = (performance.now() - started) / 1000;
        const { failed } = await settleAll(api, kb, BURST_DOCS, pid, 600_000);
        const readyS = (performance.now() - started) / 1000;
        // Every document is ready; the groups may still commit the last offsets (the projector's last batch, passed-over events).
        let lags = await lagByGroup(admin, namespace);
        while (Object.values(lags).some((lag) => lag > 0) && performance.now() - started < 600_000) {
          await new Promise((r) => setTimeout(r, 100));
          lags = await lagByGroup(admin, namespace);
        }
        const caughtUpS = (performance.now() - started) / 1000;
        sampling = false;
        await sampler;
        log(`kafka_lag_burst: ${BURST_DOCS} uploads accepted in ${round(acceptedS, 1)} s, all ready at ${round(readyS, 1)} s, every group at lag 0 at ${round(caughtUpS, 1)} s; peak lag ${JSON.stringify(peak)}`);
        return {
          documents: BURST_DOCS,
          clients: CLIENTS,
          uploads_accepted_s: round(acceptedS, 1),
          all_ready_s: round(readyS, 1),
          caught_up_s: round(caughtUpS, 1),
          peak_lag_events: peak,
          final_lag_events: lags,
          failed: failed.length,
          pass: failed.length === 0 && Object.values(lags).every((lag) => lag === 0),
        };
      },
      mixedEnv(brokers, namespace),
    );
  } finally {
    await admin.disconnect();
  }
}
