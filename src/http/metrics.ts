import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { createHttpMetrics } from './http-metrics.ts';

export type MetricProbes = { consumers: () => Record<string, bigint>; logHead: () => Promise<bigint> };

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
