import type { Middleware } from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type MetricProbes = { consumers: () => Record<string, bigint>; logHead: () => Promise<bigint> };

/** One registry per process (no module globals): HTTP traffic, the log and the consumers' progress. */
export function createMetrics(probes: MetricProbes) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'kbqa_' });
  const requests = new Counter({
    name: 'kbqa_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'kbqa_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const consumerPosition = new Gauge({
    name: 'kbqa_consumer_position',
    help: 'Last global log position handled, per consumer group',
    labelNames: ['group'] as const,
    registers: [registry],
    collect() {
      for (const [group, position] of Object.entries(probes.consumers())) this.set({ group }, Number(position));
    },
  });
  const logHead = new Gauge({
    name: 'kbqa_log_head_position',
    help: 'Newest global log position',
    registers: [registry],
    async collect() {
      this.set(Number(await probes.logHead()));
    },
  });

  const middleware: Middleware = async (ctx, next) => {
    const start = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      requests.inc({ method: ctx.method, route, status: String(ctx.status) });
      duration.observe({ method: ctx.method, route }, seconds);
    }
  };

  return { registry, middleware };
}

export type Metrics = ReturnType<typeof createMetrics>;
