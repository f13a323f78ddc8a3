import test from 'ava';
import { type ChatCommand, chatDecider, type ChatEvent } from '../../src/domain/chat/chat.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(chatDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:05.000Z';
const chat: Extract<ChatCommand, { type: 'RecordChat' }>['data'] = {
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

const feedback = { feedback_id: 'fb_1', chat_id: 'c1', workspace_id: 'w', api_key_id: 'k2', rating: 'down' as 'up' | 'down', comment: 'Wrong page.' };
const give = (data: Partial<typeof feedback> & { allowed?: string[] | null } = {}): ChatCommand => ({
  type: 'GiveFeedback',
  data: { ...feedback, allowed: null, ...data },
  metadata: at(T1),
});

test('feedback on a recorded chat is an event of its stream, as often as it is given', (t) => {
  const given: ChatEvent = { type: 'ChatFeedbackGiven', data: { ...feedback, given_at: T1 } };
  spec(t).given(completed).when(give()).then([given]);
  spec(t).given(completed, given).when(give({ feedback_id: 'fb_2', rating: 'up' })).then([{ type: 'ChatFeedbackGiven', data: { ...feedback, feedback_id: 'fb_2', rating: 'up', given_at: T1 } }]);
});

test('feedback needs a recorded chat of the workspace whose knowledge bases the key may use', (t) => {
  spec(t).given().when(give()).thenThrows('not_found', 'chat_completion_not_found');
  spec(t).given(completed).when(give({ workspace_id: 'other' })).thenThrows('not_found', 'chat_completion_not_found');
  spec(t).given(completed).when(give({ allowed: ['kb_2'] })).thenThrows('not_found', 'chat_completion_not_found');
  spec(t).given(completed).when(give({ allowed: ['kb_1'] })).then([{ type: 'ChatFeedbackGiven', data: { ...feedback, given_at: T1 } }]);
});
