import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { createHttpMetrics } from './http-metrics.ts';
import { LOAD_CLASSES, type LoadStats } from './load-shedding.ts';

/** `load`: the load shedder's counts, in processes that serve the API. */
export type MetricProbes = {
  consumers: () => Record<string, bigint>;
  logHead: () => Promise<bigint>;
  load?: () => LoadStats;
  /** Retrievals answered, by where (main, query_process, main_after_query_process). */
  retrievals?: () => Record<string, number>;
  /** Documents this process parsed, by lane, in processes that parse. */
  parses?: () => Record<string, number>;
};

/** One registry per process (no module globals): the runtime, the log and the consumers' progress, plus HTTP traffic. */
export function createMetrics(probes: MetricProbes) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'kbqa_' });
  new Gauge({
    name: 'kbqa_consumer_position',
    help: 'Last global log position handled, per consumer group',
    labelNames: ['group'] as const,
    registers: [registry],
    collect() {
      for (const [group, position] of Object.entries(probes.consumers())) this.set({ group }, Number(position));
    },
  });
  new Gauge({
    name: 'kbqa_log_head_position',
    help: 'Newest global log position',
    registers: [registry],
    async collect() {
      this.set(Number(await probes.logHead()));
    },
  });
  const { load, retrievals, parses } = probes;
  if (parses) tallyCounter(registry, 'kbqa_documents_parsed_total', 'Documents this process parsed (their parse recorded), by lane: large, small', 'lane', parses);
  if (retrievals) {
    const help = 'Retrievals (search, chat, knowledge_retrieval) answered, by where: main, query_process, main_after_query_process (a query process failed it)';
    tallyCounter(registry, 'kbqa_retrievals_total', help, 'where', retrievals);
  }
  if (load) {
    new Gauge({
      name: 'kbqa_load_in_flight',
      help: 'Requests holding a load-shedding slot, per class (query: search and chat; run: workflow runs)',
      labelNames: ['class'] as const,
      registers: [registry],
      collect() {
        const stats = load();
        for (const c of LOAD_CLASSES) this.set({ class: c }, stats[c].inFlight);
      },
    });
    new Gauge({
      name: 'kbqa_load_queued',
      help: 'Requests waiting for a load-shedding slot, per class',
      labelNames: ['class'] as const,
      registers: [registry],
      collect() {
        const stats = load();
        for (const c of LOAD_CLASSES) this.set({ class: c }, stats[c].queued);
      },
    });
    new Counter({
      name: 'kbqa_load_shed_total',
      help: 'Requests turned away by load shedding, per class and reason (queue_full, queue_timeout, partition_full: 503; client_gone: left while waiting)',
      labelNames: ['class', 'reason'] as const,
      registers: [registry],
      collect() {
        const stats = load();
        this.reset();
        for (const c of LOAD_CLASSES) for (const [reason, n] of Object.entries(stats[c].shed)) this.inc({ class: c, reason }, n);
      },
    });
  }
  const http = createHttpMetrics();
  return {
    http,
    contentType: registry.contentType,
    async render() {
      return (await registry.metrics()) + http.render();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** A counter of a tally the process keeps itself (by one label), copied into it at each scrape. */
function tallyCounter(registry: Registry, name: string, help: string, label: string, tally: () => Record<string, number>) {
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      this.reset();
      for (const [value, n] of Object.entries(tally())) this.inc({ [label]: value }, n);
    },
  });
}
