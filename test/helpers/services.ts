import type { TestFn } from 'ava';

/**
 * Registers tests that need a real service (EventStoreDB, Kafka, MongoDB, Pinecone) when every
 * variable in `env` is set, or one skipped placeholder that names what is missing, so a run
 * without the service prints why instead of passing silently.
 */
export function withService(test: TestFn<any>, title: string, env: readonly string[], register: (values: Record<string, string>) => void) {
  const missing = env.filter((name) => !process.env[name]);
  if (missing.length === 0) return register(Object.fromEntries(env.map((name) => [name, process.env[name]!])));
  const reason = `${missing.join(' and ')} not set; set ${missing.length > 1 ? 'them' : 'it'} to run these tests against the real service`;
  test.skip(`${title} (skipped: ${reason})`, () => {});
  process.stdout.write(`skipping "${title}": ${reason}\n`);
}
