import type { Answer, RequestBody } from '../../api/client.ts';

export type Agent = Answer<'/v1/agents/{agent_id}', 'get'>;
type AgentPatch = RequestBody<'/v1/agents/{agent_id}', 'patch'>;

/**
 * The editor's form: the agent's draft as fields hold it (lists as lines, unset numbers as NaN, the
 * way NumberField says "empty"). The access code is never returned, so the form holds only a new
 * one to set, or the wish to remove the one there is.
 */
export type AgentForm = {
  name: string;
  model: string | null;
  instructions: string;
  knowledgeBaseIds: string[];
  openingMessage: string;
  suggestedQuestions: string;
  topK: number;
  scoreThreshold: number;
  rerank: boolean;
  newAccessCode: string;
  removeAccessCode: boolean;
  allowedOrigins: string;
  dailyCap: number;
  visitorDailyCap: number;
};

export function formOf(agent: Agent): AgentForm {
  return {
    name: agent.name,
    model: agent.model,
    instructions: agent.instructions ?? '',
    knowledgeBaseIds: agent.knowledge_base_ids,
    openingMessage: agent.opening_message ?? '',
    suggestedQuestions: agent.suggested_questions.join('\n'),
    topK: agent.retrieval.top_k ?? NaN,
    scoreThreshold: agent.retrieval.score_threshold ?? NaN,
    rerank: agent.retrieval.rerank ?? false,
    newAccessCode: '',
    removeAccessCode: false,
    allowedOrigins: agent.public.allowed_origins.join('\n'),
    dailyCap: agent.public.daily_message_cap ?? NaN,
    visitorDailyCap: agent.public.visitor_daily_message_cap ?? NaN,
  };
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
const textOrNull = (text: string) => text.trim() || null;
const numberOrNull = (n: number) => (Number.isNaN(n) ? null : n);

/** The PATCH that makes the draft what the form says (`public` merges field by field on the server). */
export function patchOf(form: AgentForm, agent: Agent): AgentPatch {
  const retrieval: NonNullable<AgentPatch['retrieval']> = { rerank: form.rerank };
  if (!Number.isNaN(form.topK)) retrieval.top_k = form.topK;
  if (!Number.isNaN(form.scoreThreshold)) retrieval.score_threshold = form.scoreThreshold;
  const access: NonNullable<AgentPatch['public']> = {
    allowed_origins: lines(form.allowedOrigins),
    daily_message_cap: numberOrNull(form.dailyCap),
    visitor_daily_message_cap: numberOrNull(form.visitorDailyCap),
  };
  // An absent access_code keeps the one set; null removes it.
  if (form.newAccessCode) access.access_code = form.newAccessCode;
  else if (form.removeAccessCode) access.access_code = null;
  return {
    name: form.name.trim(),
    ...(form.model ? { model: form.model } : {}),
    instructions: textOrNull(form.instructions),
    // A workflow-backed agent has no knowledge bases of its own: sending some would be refused.
    ...(agent.workflow_id ? {} : { knowledge_base_ids: form.knowledgeBaseIds }),
    opening_message: textOrNull(form.openingMessage),
    suggested_questions: lines(form.suggestedQuestions),
    retrieval,
    public: access,
  };
}
