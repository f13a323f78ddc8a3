import { secretScrubber } from '../src/lib/secret-scrub.ts';
import { latencySummary, log, round } from './util.ts';

const SECRET = 'Bearer sk-live-0123456789-abcdefghij';
const ROUNDS = 30;
/** A scrub of a 1 MB response (the http node's default cap) should stay a small part of the call. */
const TARGET_P50_MS = 50;

/** The scrubber before issue 42: the exact value only. */
const exactOnly = (secrets: readonly string[]) => (text: string) => secrets.filter((s) => s.length >= 6).reduce((out, s) => out.split(s).join('[secret]'), text);

/**
 * What scrubbing costs the http_request node (issue 42, item 1): every encoding of one secret
 * (src/lib/secret-scrub.ts) against the exact echo it replaced, over a 1 MB JSON-ish body with the
 * secret echoed a few times, and over a 64 KB one; and building the scrubber, which each call does.
 */
export async function secretScrubBench() {
  const line = '{"id":12345,"name":"An ordinary record","tags":["alpha","beta"],"note":"nothing secret here"}\n';
  const body = (bytes: number) => {
    const text = line.repeat(Math.ceil(bytes / line.length));
    return `${text}${SECRET}${Buffer.from(SECRET).toString('base64')}${text.slice(0, 1000)}`;
  };
  const measure = (scrub: (text: string) => string, text: string) => {
    const ms: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t = performance.now();
      scrub(text);
      ms.push(performance.now() - t);
    }
    return latencySummary(ms);
  };
  const t0 = performance.now();
  for (let i = 0; i < 1000; i++) secretScrubber([SECRET]);
  const buildMs = round((performance.now() - t0) / 1000, 4);
  const every = secretScrubber([SECRET]);
  const exact = exactOnly([SECRET]);
  const result = {
    build_ms: buildMs,
    body_1mb: { every_encoding: measure(every, body(1 << 20)), exact_only_before: measure(exact, body(1 << 20)) },
    body_64kb: { every_encoding: measure(every, body(64 << 10)), exact_only_before: measure(exact, body(64 << 10)) },
  };
  log(`secret_scrub: ${JSON.stringify(result)}`);
  return { ...result, target_1mb_p50_ms: TARGET_P50_MS, pass: result.body_1mb.every_encoding.p50_ms <= TARGET_P50_MS };
}
