import test from 'ava';
import { loadConfig } from '../../src/config.ts';
import { logDeploymentProviders } from '../../src/composition/provider-log.ts';
import { captureLogs, LEVEL } from '../helpers/logs.ts';

const KEY = 'sk-never-logged-7a7a';

const logged = (env: Record<string, string>) => {
  const { logger, lines, text } = captureLogs();
  logDeploymentProviders(loadConfig(env), logger);
  return { lines, text: text() };
};

test('OPENAI_API_KEY alone offers OpenAI’s default models, and says so', (t) => {
  const config = loadConfig({ OPENAI_API_KEY: KEY });
  t.deepEqual(config.openai?.chatModels, ['gpt-4o-mini']);
  t.deepEqual(config.openai?.embeddingModels, [{ id: 'text-embedding-3-small', dimensions: 1536 }]);
  const { lines, text } = logged({ OPENAI_API_KEY: KEY });
  t.is(lines.length, 1);
  t.like(lines[0], { level: LEVEL.info, provider: 'openai', host: 'api.openai.com', chat_models: ['gpt-4o-mini'], embedding_models: ['text-embedding-3-small:1536'] });
  t.regex(lines[0]!.msg, /default models/);
  t.false(text.includes(KEY));
});

test('a list given replaces the defaults: only what was named', (t) => {
  const config = loadConfig({ OPENAI_API_KEY: KEY, KBQA_OPENAI_CHAT_MODELS: 'gpt-4.1' });
  t.deepEqual(config.openai?.chatModels, ['gpt-4.1']);
  t.deepEqual(config.openai?.embeddingModels, []);
  t.like(logged({ OPENAI_API_KEY: KEY, KBQA_OPENAI_CHAT_MODELS: 'gpt-4.1' }).lines[0], { level: LEVEL.info, msg: 'deployment model provider', chat_models: ['gpt-4.1'] });
});

test('another server’s key with no model list: no guessed models, a warning naming what to set, its host and never the key', (t) => {
  const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'http://ollama.internal:11434/v1' };
  t.deepEqual(loadConfig(env).openai?.chatModels, []);
  const { lines, text } = logged(env);
  t.like(lines[0], { level: LEVEL.warn, host: 'ollama.internal:11434' });
  t.regex(lines[0]!.msg, /KBQA_OPENAI_CHAT_MODELS.*KBQA_OPENAI_EMBEDDING_MODELS/);
  t.false(text.includes(KEY));
});

test('the rerank API: its host and models, or a warning without models; nothing when no provider is configured', (t) => {
  const { lines, text } = logged({ KBQA_RERANK_URL: 'https://api.cohere.com/v2', KBQA_RERANK_API_KEY: KEY, KBQA_RERANK_MODELS: 'rerank-v3.5' });
  t.like(lines[0], { level: LEVEL.info, provider: 'rerank', host: 'api.cohere.com', rerank_models: ['rerank-v3.5'] });
  t.false(text.includes(KEY));
  t.like(logged({ KBQA_RERANK_URL: 'https://api.jina.ai/v1' }).lines[0], { level: LEVEL.warn });
  t.deepEqual(logged({}).lines, []);
});
