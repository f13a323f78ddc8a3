import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { round } from './util.ts';

/** wrk (a C load generator, Debian's `wrk`) when installed: it leaves the cores to the server, where a Node client takes about a third of one. */
export const hasWrk = () => spawnSync('wrk', ['--version']).error === undefined;

export type WrkLoad = { url: string; headers: Record<string, string>; bodies: string[]; clients: number; seconds: number };

/**
 * POSTs the bodies in turn from `clients` keep-alive connections for `seconds`; throughput and
 * latency percentiles as wrk measures them (one wrk thread: enough for a few thousand requests/s).
 */
export async function wrkThroughput({ url, headers, bodies, clients, seconds }: WrkLoad) {
  const dir = mkdtempSync(join(tmpdir(), 'kbqa-wrk-'));
  try {
    const script = join(dir, 'post.lua');
    const headerLines = Object.entries({ ...headers, 'content-type': 'application/json' }).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${luaString(v)}`);
    writeFileSync(
      script,
      `wrk.method = "POST"
${headerLines.join('\n')}
local bodies = { ${bodies.map(luaString).join(',\n')} }
local i = 0
request = function()
  i = i + 1
  return wrk.format(nil, nil, nil, bodies[(i % #bodies) + 1])
end
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout
  io.write(string.format("KBQA %.0f %.0f %.0f %.0f %.0f %.0f\\n", summary.requests, summary.duration, errors, latency:percentile(50), latency:percentile(99), latency.max))
end
`,
    );
    const { stdout } = await promisify(execFile)('wrk', ['-t1', `-c${clients}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, url], { maxBuffer: 16 * 1024 * 1024 });
    const line = /KBQA (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(stdout);
    if (!line) throw new Error(`wrk printed no summary: ${stdout.slice(-500)}`);
    const [requests, durationUs, errors, p50, p99, max] = line.slice(1).map(Number);
    return { requests_per_s: round(requests! / (durationUs! / 1e6)), errors: errors!, p50_ms: round(p50! / 1000, 3), p99_ms: round(p99! / 1000, 3), max_ms: round(max! / 1000, 3) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A Lua long string: JSON bodies hold no "]==]". */
const luaString = (text: string) => `[==[${text}]==]`;
