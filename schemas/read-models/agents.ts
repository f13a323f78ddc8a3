import { z } from 'zod';
import { AgentConfig, VisitorCitation } from '../events/agent.ts';

/** An agent as the agents projection keeps it: the draft, and the published version the page answers from. */
export const AgentDoc = z.object({
  id: z.string(),
  workspace_id: z.string(),
  slug: z.string(),
  draft: AgentConfig,
  /** The version answering at /a/{slug}; null while unpublished. */
  published: z.object({ version: z.int(), config: AgentConfig, published_at: z.string() }).nullable(),
  /** The latest version number ever published (0: none), kept after an unpublish. */
  latest_version: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AgentDoc = z.infer<typeof AgentDoc>;

/** A published version, immutable; id `{agent_id}-v{version, 6 digits}` so they list in order. */
export const AgentVersionDoc = z.object({
  id: z.string(),
  agent_id: z.string(),
  workspace_id: z.string(),
  version: z.int(),
  config: AgentConfig,
  published_at: z.string(),
});
export type AgentVersionDoc = z.infer<typeof AgentVersionDoc>;

/** A visitor's message on the landing page: the public shape only (no knowledge-base or chunk id). */
export const VisitorMessage = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  citations: z.array(VisitorCitation).optional(),
  rating: z.enum(['up', 'down']).optional(),
});
export type VisitorMessage = z.infer<typeof VisitorMessage>;

/** A landing-page visitor's conversation with one agent, id `{agent_id}-{visitor_id}`: its latest messages. */
export const AgentVisitorDoc = z.object({
  id: z.string(),
  agent_id: z.string(),
  workspace_id: z.string(),
  visitor_id: z.string(),
  messages: z.array(VisitorMessage),
  updated_at: z.string(),
});
export type AgentVisitorDoc = z.infer<typeof AgentVisitorDoc>;
