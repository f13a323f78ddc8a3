import { pino, type Logger } from 'pino';
import { bootstrap } from '../../src/app/services/workspaces.ts';
import { loadConfig } from '../../src/config.ts';
import { createRuntime, listen, type Runtime } from '../../src/main.ts';
import { ADMIN_KEY } from './admin-key.ts';
import { call, type CallOptions, type Reply } from './call.ts';
import { tempDir } from './temp.ts';

export { ADMIN_KEY, type CallOptions };

export type TestServer = {
  url: string;
  runtime: Runtime;
  /** Moves the server's clock (expiry tests). */
  advanceClock(ms: number): void;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  head(): Promise<bigint>;
  close(): Promise<void>;
};

/** logger: where the server's log lines go (captureLogs in logs.ts); silent without one. */
export type ServerOptions = { logger?: Logger };

/** The real app on a random loopback port over a fresh data dir, bootstrapped with ADMIN_KEY. */
export async function startServer(env: Record<string, string> = {}, options: ServerOptions = {}): Promise<TestServer> {
  const dir = tempDir();
  // No warm-up, no query processes: many test servers start, and each would start processes for
  // nothing (test/http/query-processes.http.test.ts turns query processes on).
  const config = loadConfig({ KBQA_DATA_DIR: dir.path, PORT: '0', HOST: '127.0.0.1', KBQA_ADMIN_KEY: ADMIN_KEY, KBQA_PARSER_WARMUP: 'off', KBQA_QUERY_PROCESSES: '0', ...env });
  let offset = 0;
  const runtime = await createRuntime(config, options.logger ?? pino({ level: 'silent' }), () => new Date(Date.now() + offset));
  await bootstrap(runtime.ctx, config.adminKey);
  const http = await listen(runtime, config);
  const url = `http://127.0.0.1:${http.port}`;
  return {
    url,
    runtime,
    advanceClock: (ms) => void (offset += ms),
    call: (method, path, options) => call(url, method, path, options),
    head: () => runtime.store.headPosition(),
    async close() {
      await http.close();
      dir.remove();
    },
  };
}
