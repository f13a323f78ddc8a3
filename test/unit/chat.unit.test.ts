import test from 'ava';
import { type ChatCommand, chatDecider, type ChatEvent } from '../../src/domain/chat/chat.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(chatDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:05.000Z';
const chat: ChatCommand['data'] = {
  chat_id: 'c1',
  workspace_id: 'w',
  api_key_id: 'k',
  knowledge_base_id: 'kb_1',
  model: 'kbqa-extractive',
  stream: true,
  finish_reason: 'stop',
  citations: [],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  latency_ms: { retrieval: 3, first_token: 4, total: 9 },
};
const completed: ChatEvent = { type: 'ChatCompleted', data: { ...chat, completed_at: T0 } };

test('a chat is recorded at the command time', (t) => {
  spec(t).given().when({ type: 'RecordChat', data: chat, metadata: at(T0) }).then([completed]);
});

test('a retried record of the same chat appends nothing', (t) => {
  spec(t).given(completed).when({ type: 'RecordChat', data: chat, metadata: at(T1) }).then([]);
});
