const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

type Series = { labels: string; counts: Float64Array; sum: number; count: number };

/**
 * Request counts and latencies per method, route and status, kept in plain arrays: recording is a
 * Map lookup and a bucket walk, and the Prometheus text is only built when /metrics is scraped.
 * (prom-client re-hashes label sets on every observation, which showed in the request profile.)
 */
export function createHttpMetrics() {
  const series = new Map<string, Series>();
  return {
    observe(method: string, route: string, status: number, seconds: number) {
      const key = `${method} ${route} ${status}`;
      let s = series.get(key);
      if (!s) {
        s = { labels: `method="${method}",route="${escape(route)}",status="${status}"`, counts: new Float64Array(BUCKETS.length), sum: 0, count: 0 };
        series.set(key, s);
      }
      s.count += 1;
      s.sum += seconds;
      for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) s.counts[i]! += 1;
    },
    render(): string {
      const lines = [
        '# HELP kbqa_http_requests_total HTTP requests by method, route and status',
        '# TYPE kbqa_http_requests_total counter',
        ...[...series.values()].map((s) => `kbqa_http_requests_total{${s.labels}} ${s.count}`),
        '# HELP kbqa_http_request_duration_seconds HTTP request latency by method, route and status',
        '# TYPE kbqa_http_request_duration_seconds histogram',
      ];
      for (const s of series.values()) {
        BUCKETS.forEach((le, i) => lines.push(`kbqa_http_request_duration_seconds_bucket{${s.labels},le="${le}"} ${s.counts[i]}`));
        lines.push(`kbqa_http_request_duration_seconds_bucket{${s.labels},le="+Inf"} ${s.count}`);
        lines.push(`kbqa_http_request_duration_seconds_sum{${s.labels}} ${s.sum}`);
        lines.push(`kbqa_http_request_duration_seconds_count{${s.labels}} ${s.count}`);
      }
      return `${lines.join('\n')}\n`;
    },
  };
}

const escape = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
