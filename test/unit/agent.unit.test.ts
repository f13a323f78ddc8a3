import test from 'ava';
import type { AgentConfig } from '../../schemas/events/agent.ts';
import { agentDecider, type AgentEvent } from '../../src/domain/agent/agent.ts';
import { agentVisitorDecider } from '../../src/domain/agent/visitor.ts';
import { withAgentRetrieval } from '../../src/domain/agent/retrieval.ts';
import { defaultSettings } from '../../schemas/knowledge-base-settings.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(agentDecider);
const visitorSpec = deciderSpec(agentVisitorDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const ids = { agent_id: 'agt_1', workspace_id: 'ws_1' };
const config = (over: Partial<AgentConfig> = {}): AgentConfig => ({
  name: 'Helper',
  instructions: null,
  model: 'kbqa-extractive',
  knowledge_base_ids: ['kb_1'],
  workflow_id: null,
  opening_message: null,
  suggested_questions: [],
  retrieval: {},
  public: { access_code_hash: null, allowed_origins: [], daily_message_cap: null, visitor_daily_message_cap: null },
  ...over,
});
const created: AgentEvent = { type: 'AgentCreated', data: { ...ids, slug: 'slug-0123456789', config: config(), created_at: T0 } };
const published = (version: number, c = config()): AgentEvent => ({ type: 'AgentPublished', data: { ...ids, version, slug: 'slug-0123456789', config: c, published_at: T0 } });

test('publishing freezes the draft as the next version, numbered after the last even once unpublished', (t) => {
  const draft = config({ name: 'Helper 2' });
  spec(t)
    .given(created, published(1), { type: 'AgentUnpublished', data: { ...ids, unpublished_at: T0 } }, { type: 'AgentUpdated', data: { ...ids, config: draft, updated_at: T0 } })
    .when({ type: 'PublishAgent', data: ids, metadata: at(T0) })
    .then([published(2, draft)]);
});

test('an agent has knowledge bases or a workflow, not both', (t) => {
  spec(t)
    .given(created)
    .when({ type: 'UpdateAgent', data: { ...ids, config: config({ workflow_id: 'wf_1' }) }, metadata: at(T0) })
    .thenThrows('invalid', 'invalid_agent', 'workflow_id');
});

test('another workspace’s agent, or a deleted one, is not found; unpublishing a draft is a conflict', (t) => {
  spec(t).given(created).when({ type: 'PublishAgent', data: { ...ids, workspace_id: 'ws_2' }, metadata: at(T0) }).thenThrows('not_found', 'agent_not_found');
  spec(t).given(created, { type: 'AgentDeleted', data: { ...ids, deleted_at: T0 } }).when({ type: 'PublishAgent', data: ids, metadata: at(T0) }).thenThrows('not_found', 'agent_not_found');
  spec(t).given(created).when({ type: 'UnpublishAgent', data: ids, metadata: at(T0) }).thenThrows('conflict', 'agent_not_published');
});

test('a visitor rates only answers of their own conversation', (t) => {
  visitorSpec(t)
    .given()
    .when({ type: 'GiveFeedback', data: { ...ids, visitor_id: 'v1', message_id: 'chatcmpl-x', rating: 'up', comment: null }, metadata: at(T0) })
    .thenThrows('not_found', 'message_not_found');
});

test('an agent’s retrieval options override its knowledge bases’ settings field by field', (t) => {
  const base = defaultSettings('kbqa-hash-embed');
  t.is(withAgentRetrieval(base, undefined), base);
  t.like(withAgentRetrieval(base, { top_k: 9, rerank: false }), { top_k: 9, score_threshold: base.score_threshold, rerank: { enabled: false, model: null } });
});

test('a visitor’s feedback: the same rating and comment again records nothing; a changed one is recorded', (t) => {
  const exchanged = {
    type: 'AgentVisitorExchanged' as const,
    data: { ...ids, visitor_id: 'v1', agent_version: 1, question: { id: 'msg_x_q', content: 'Q' }, answer: { id: 'chatcmpl-x', content: 'A', citations: [] }, at: T0 },
  };
  const feedback = (rating: 'up' | 'down', comment: string | null) => ({ ...ids, visitor_id: 'v1', message_id: 'chatcmpl-x', rating, comment });
  const given = { type: 'AgentVisitorFeedbackGiven' as const, data: { ...feedback('up', 'clear'), at: T0 } };
  visitorSpec(t).given(exchanged, given).when({ type: 'GiveFeedback', data: feedback('up', 'clear'), metadata: at(T0) }).then([]);
  visitorSpec(t).given(exchanged, given).when({ type: 'GiveFeedback', data: feedback('up', null), metadata: at(T0) }).then([{ type: 'AgentVisitorFeedbackGiven', data: { ...feedback('up', null), at: T0 } }]);
  visitorSpec(t).given(exchanged, given).when({ type: 'GiveFeedback', data: feedback('down', 'clear'), metadata: at(T0) }).then([{ type: 'AgentVisitorFeedbackGiven', data: { ...feedback('down', 'clear'), at: T0 } }]);
});
