import type { TestFn } from 'ava';
import { startServer, type TestServer } from './server.ts';
import { withService } from './services.ts';

/** The real server `npm run llm:up` starts (llama.cpp's, with SmolLM2-135M-Instruct): what CI exports. */
export type RealLlm = { baseUrl: string; modelId: string };

/**
 * Registers tests against the real LLM server when LLM_BASE_URL and LLM_MODEL are set (CI runs
 * `npm run llm:up` and exports both), else one skipped placeholder saying so.
 */
export function withRealLlm(test: TestFn<any>, title: string, register: (llm: RealLlm) => void) {
  withService(test, `${title} (real LLM server: npm run llm:up)`, ['LLM_BASE_URL', 'LLM_MODEL'], (env) => register({ baseUrl: env.LLM_BASE_URL!, modelId: env.LLM_MODEL! }));
}

/**
 * Short, deterministic answers: a 135M model on two shared cores makes some 30–60 tokens a
 * second, and temperature 0 makes the same prompt give the same answer on every run.
 */
export const SHORT = { temperature: 0, max_tokens: 24 } as const;

/**
 * Our server as the docs tell an operator to run it for a local model server (loopback allowed:
 * docs/model-providers.md, "Where a provider may be"), with chat content recorded so the tests can
 * compare the events with the answers.
 */
export function startServerForLlm(env: Record<string, string> = {}): Promise<TestServer> {
  return startServer({ KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1', KBQA_STORE_CHAT_CONTENT: 'on', KBQA_OPENAI_MAX_RETRIES: '0', KBQA_RATE_LIMIT_PER_MINUTE: '0', ...env });
}

/**
 * The workspace provider exactly as docs/model-providers.md's recipe creates it (any non-empty key:
 * llama.cpp's server, like Ollama, ignores it); answers the model's name, `{provider}/{model id}`.
 */
export async function connectLlm(server: TestServer, llm: RealLlm, name = 'llamacpp', extraModels: unknown[] = []): Promise<{ id: string; model: string }> {
  const created = await server.call('POST', '/v1/model-providers', {
    json: { name, base_url: llm.baseUrl, api_key: 'llama.cpp', models: [{ id: llm.modelId, type: 'chat' }, ...extraModels] },
  });
  if (created.status !== 201) throw new Error(`creating the provider failed: ${JSON.stringify(created.body)}`);
  return { id: created.body.id as string, model: `${name}/${llm.modelId}` };
}

/** The ChatCompleted events of a chat id (the stream is `chat-<id>`), once the append has landed. */
export async function chatEvents(server: TestServer, chatId: string, waitMs = 5000) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const events = await server.runtime.store.readStream(`chat-${chatId}`);
    if (events.length > 0 || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
