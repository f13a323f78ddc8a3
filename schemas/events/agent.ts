import { z } from 'zod';

/** How an agent's retrieval differs from its knowledge bases' own settings (each field overrides theirs). */
export const AgentRetrieval = z.strictObject({
  top_k: z.int().min(1).max(100).optional(),
  score_threshold: z.number().min(0).max(1).optional(),
  rerank: z.boolean().optional().describe('Whether retrieved passages are reranked (the knowledge bases’ rerank model)'),
});

/**
 * Who may talk to the published agent on its landing page, and how much. The access code is never
 * here in plain text: `access_code_hash` is a salted scrypt hash (src/domain/agent/access-code.ts).
 */
export const AgentPublicSettings = z.strictObject({
  access_code_hash: z.string().nullable(),
  allowed_origins: z.array(z.string()),
  daily_message_cap: z.int().nullable(),
  visitor_daily_message_cap: z.int().nullable(),
});

/** Everything an agent is: what a draft holds and what a published version freezes. */
export const AgentConfig = z.strictObject({
  name: z.string(),
  instructions: z.string().nullable(),
  model: z.string(),
  knowledge_base_ids: z.array(z.string()),
  workflow_id: z.string().nullable(),
  opening_message: z.string().nullable(),
  suggested_questions: z.array(z.string()),
  retrieval: AgentRetrieval,
  public: AgentPublicSettings,
});
export type AgentConfig = z.infer<typeof AgentConfig>;

/** An agent was created as a draft; its slug (the landing page's address) is fixed for its life. */
export const AgentCreated = z.strictObject({
  agent_id: z.string(),
  workspace_id: z.string(),
  slug: z.string(),
  config: AgentConfig,
  created_at: z.iso.datetime(),
});

/** The draft changed (the published version, if any, does not). */
export const AgentUpdated = z.strictObject({
  agent_id: z.string(),
  workspace_id: z.string(),
  config: AgentConfig,
  updated_at: z.iso.datetime(),
});

/** An immutable version: the full config as it was, so the page answers from it whatever the draft becomes. */
export const AgentPublished = z.strictObject({
  agent_id: z.string(),
  workspace_id: z.string(),
  version: z.int().min(1),
  slug: z.string(),
  config: AgentConfig,
  published_at: z.iso.datetime(),
});

export const AgentUnpublished = z.strictObject({
  agent_id: z.string(),
  workspace_id: z.string(),
  unpublished_at: z.iso.datetime(),
});

export const AgentDeleted = z.strictObject({
  agent_id: z.string(),
  workspace_id: z.string(),
  deleted_at: z.iso.datetime(),
});

export const agentEvents = { AgentCreated, AgentUpdated, AgentPublished, AgentUnpublished, AgentDeleted } as const;

/**
 * A citation as a visitor's conversation keeps it. The knowledge base and chunk stay on the server
 * (they find the page image to draw); the page is shown only the public shape (landing-page.md).
 */
export const VisitorCitation = z.strictObject({
  index: z.int(),
  knowledge_base_id: z.string(),
  chunk_id: z.string(),
  source: z.string(),
  page: z.int(),
  paragraph: z.string(),
  quote: z.string().nullable(),
  document_id: z.string(),
  /** The version of the document the chunk belongs to (issue 44); absent in records from before versions: 1. */
  document_version: z.int().min(1).optional(),
  char_start: z.int().nullable(),
  char_end: z.int().nullable(),
  has_image: z.boolean(),
});

/** A turn of a landing-page visitor's conversation: the question and the answer with its citations. */
export const AgentVisitorExchanged = z.strictObject({
  agent_id: z.string(),
  workspace_id: z.string(),
  visitor_id: z.string(),
  agent_version: z.int(),
  question: z.strictObject({ id: z.string(), content: z.string() }),
  answer: z.strictObject({ id: z.string(), content: z.string(), citations: z.array(VisitorCitation) }),
  at: z.iso.datetime(),
});

/** A visitor rated an answer of their conversation. */
export const AgentVisitorFeedbackGiven = z.strictObject({
  agent_id: z.string(),
  workspace_id: z.string(),
  visitor_id: z.string(),
  message_id: z.string(),
  rating: z.enum(['up', 'down']),
  comment: z.string().nullable(),
  at: z.iso.datetime(),
});

export const agentVisitorEvents = { AgentVisitorExchanged, AgentVisitorFeedbackGiven } as const;
