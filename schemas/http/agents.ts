import { z } from 'zod';
import { AgentRetrieval } from '../events/agent.ts';
import { embedOriginProblem } from './embed-origin.ts';

const text = (max: number) => z.string().max(max);
const cap = z.int().min(1).max(1_000_000);

/** The landing page's settings as a client sends them; `access_code` is hashed before anything keeps it. */
const PublicSettingsBody = z.strictObject({
  access_code: text(200).min(4).nullable().optional().describe('Visitors must give it before chatting; stored only as a salted hash, never returned. null removes it.'),
  allowed_origins: z
    .array(
      // An origin and nothing else: it goes into the page's Content-Security-Policy, where a wildcard, a quote or a `;` could say more than meant.
      z
        .string()
        .max(300)
        .superRefine((entry, ctx) => {
          const problem = embedOriginProblem(entry);
          if (problem) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(entry)} ${problem}`, params: { code: 'invalid_origin' } });
        }),
    )
    .max(20)
    .optional()
    .describe('Origins that may embed the page in a frame (frame-ancestors), each exactly as browsers send it (`https://example.com`, `http://localhost:8080`): no wildcard, path, quote, space, comma or semicolon; none: no site may'),
  daily_message_cap: cap.nullable().optional().describe('Messages a day the agent answers on its page, all visitors together (UTC days)'),
  visitor_daily_message_cap: cap.nullable().optional().describe('Messages a day one visitor may send (UTC days)'),
});

const fields = {
  name: text(200).min(1),
  instructions: text(20_000).nullable().optional().describe('The system prompt'),
  model: text(200).min(1).describe('A chat model: the deployment’s, or a workspace provider’s `{provider}/{model}`'),
  knowledge_base_ids: z.array(z.string().min(1).max(200)).max(20).optional().describe('What the agent’s answers are grounded in'),
  workflow_id: z.string().min(1).max(200).nullable().optional().describe('Instead of knowledge bases: the workflow that answers (the question is its input)'),
  opening_message: text(2000).nullable().optional(),
  suggested_questions: z.array(text(300).min(1)).max(10).optional(),
  retrieval: AgentRetrieval.optional(),
  public: PublicSettingsBody.optional(),
};

export const CreateAgentBody = z.strictObject(fields);
export type CreateAgentBody = z.infer<typeof CreateAgentBody>;

/** Any subset changes the draft; `public` merges field by field (an absent access_code keeps the code). */
export const UpdateAgentBody = z.strictObject({ ...fields, name: fields.name.optional(), model: fields.model.optional() });
export type UpdateAgentBody = z.infer<typeof UpdateAgentBody>;

const PublicSettings = z.object({
  access_code_set: z.boolean(),
  allowed_origins: z.array(z.string()),
  daily_message_cap: z.int().nullable(),
  visitor_daily_message_cap: z.int().nullable(),
});

const ConfigView = {
  name: z.string(),
  instructions: z.string().nullable(),
  model: z.string(),
  knowledge_base_ids: z.array(z.string()),
  workflow_id: z.string().nullable(),
  opening_message: z.string().nullable(),
  suggested_questions: z.array(z.string()),
  retrieval: AgentRetrieval,
  public: PublicSettings,
};

/** An agent as the API shows it: its draft, and which version its page answers from. */
export const Agent = z.object({
  id: z.string(),
  object: z.literal('agent'),
  status: z.enum(['draft', 'published']),
  published_version: z.int().nullable(),
  public_url: z.string().nullable().describe('`/a/{slug}` while published'),
  ...ConfigView,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Agent = z.infer<typeof Agent>;

export const AgentVersion = z.object({
  object: z.literal('agent.version'),
  agent_id: z.string(),
  version: z.int(),
  published_at: z.string(),
  ...ConfigView,
});
export type AgentVersion = z.infer<typeof AgentVersion>;

export const AgentPublication = z.object({
  object: z.literal('agent.publication'),
  agent_id: z.string(),
  version: z.int(),
  public_url: z.string(),
  embed: z.object({ iframe: z.string(), script: z.string() }),
});

export const AgentDeleted = z.object({ id: z.string(), object: z.literal('agent.deleted'), deleted: z.literal(true) });
