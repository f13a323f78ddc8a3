import { createHash } from 'node:crypto';
import type { AgentDoc } from '../../../projections/agents/index.ts';
import type { AgentVisitorDoc } from '../../../projections/agents/visitors.ts';
import type { AgentConfig } from '../../../schemas/events/agent.ts';
import type { VisitorMessage } from '../../../schemas/read-models/agents.ts';
import { agentVisitorDecider, visitorKey } from '../../domain/agent/visitor.ts';
import { ApiError } from '../../ports/api-error.ts';
import type { ChatMessage } from '../../ports/models.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata } from '../context.ts';
import { notFoundError, unauthenticated } from '../errors.ts';
import type { Citation } from '../retrieval/retrieved-context.ts';
import { accessCodeMatches } from './agent-access-code.ts';
import type { AgentService } from './agents.ts';
import { agentChatInput } from './chat-agent.ts';
import { prepareWorkflowChat, type WorkflowChatDeps } from './chat-agent-workflow.ts';
import type { ChatOutcome, ChatService, PreparedChat } from './chat.ts';
import type { DocumentService } from './documents.ts';
import type { LandingUsage } from './landing-usage.ts';
import type { Principal } from './principal.ts';
import type { WorkflowService } from './workflows.ts';
import { knowledgeBasesOf } from '../../domain/workflow/graph.ts';

export type PublishedAgent = AgentDoc & { published: NonNullable<AgentDoc['published']> };

/** The public citation shape (docs/landing-page.md): no knowledge-base id, chunk id or key. */
export type PublicCitation = { index: number; source: string; page: number; paragraph: string; quote: string | null; document_version: number; image_url: string | null };

/** How many earlier messages of the visitor's conversation go before a single new one. */
const HISTORY_TURNS = 20;

/**
 * The landing page's agent acts as a key of its own: the workspace's, limited to the published
 * version's knowledge bases and read scope. Whatever a visitor asks can reach nothing else.
 */
const agentPrincipal = (agent: PublishedAgent, knowledgeBaseIds = agent.published.config.knowledge_base_ids): Principal => ({
  keyId: `agent:${agent.id}`,
  workspaceId: agent.workspace_id,
  scopes: ['read'],
  knowledgeBaseIds: [...knowledgeBaseIds],
});

/** The access code's fingerprint a visitor's cookie holds once they gave it: a new code asks everyone again. */
const accessFingerprint = (config: AgentConfig) => (config.public.access_code_hash ? createHash('sha256').update(config.public.access_code_hash).digest('base64url').slice(0, 16) : null);

const admitted = (agent: PublishedAgent, granted: string | null) => {
  const fingerprint = accessFingerprint(agent.published.config);
  return fingerprint === null || granted === fingerprint;
};

export type LandingPageDeps = {
  ctx: AppContext;
  agents: Pick<AgentService, 'bySlug'>;
  chat: ChatService;
  documents: Pick<DocumentService, 'pageImage'>;
  usage: LandingUsage;
  workflows: WorkflowChatDeps['workflows'] & Pick<WorkflowService, 'graphFor'>;
};

/** A published agent's landing page: who may talk, within which caps, and the visitor's own conversation. */
export function createLandingPageService({ ctx, agents, chat, documents, usage, workflows }: LandingPageDeps) {
  /** The visitor's conversation as the agent is now: what cites a knowledge base it no longer reads is withheld (currentMessages). */
  const conversation = async (agent: PublishedAgent, visitorId: string) =>
    currentMessages(await readsNow(agent), await ctx.readModels.get<AgentVisitorDoc>('agent_visitors', visitorKey(agent.id, visitorId)));

  /**
   * The knowledge bases the agent's published version reads now: its own, or, for a workflow-backed
   * agent, those its workflow's published version names (which the workflow's owner may change
   * under it). A workflow that is gone or unpublished reads none: nothing cited stays visible.
   */
  async function readsNow(agent: PublishedAgent): Promise<ReadonlySet<string>> {
    const { workflow_id, knowledge_base_ids } = agent.published.config;
    if (workflow_id === null) return new Set(knowledge_base_ids);
    const graph = await workflows.graphFor({ ...agentPrincipal(agent), knowledgeBaseIds: null }, workflow_id, 'published').catch((error: unknown) => {
      if (error instanceof ApiError && error.status < 500) return null;
      throw error;
    });
    return new Set(graph ? knowledgeBasesOf(graph) : []);
  }

  return {
    /** The published agent at this slug, or 404 `agent_not_found` (unknown, unpublished or deleted look the same). */
    async agent(slug: string): Promise<PublishedAgent> {
      const agent = await agents.bySlug(slug);
      if (!agent) throw notFoundError('agent_not_found', 'No published agent here.');
      return agent;
    },

    view: (agent: PublishedAgent) => {
      const { name, opening_message, suggested_questions, public: pub } = agent.published.config;
      return { slug: agent.slug, name, opening_message, suggested_questions, access_code_required: pub.access_code_hash !== null };
    },

    /**
     * Whether the visitor may talk: no code asked, or their cookie says they gave the current one,
     * or they give it now. Returns the fingerprint to keep in their cookie (null: none to keep).
     */
    async admit(agent: PublishedAgent, granted: string | null, code: string | undefined): Promise<string | null> {
      const fingerprint = accessFingerprint(agent.published.config);
      if (fingerprint === null || granted === fingerprint) return fingerprint;
      if (code === undefined) throw unauthenticated('access_code_required', 'This assistant asks for an access code.');
      if (!(await accessCodeMatches(code, agent.published.config.public.access_code_hash!))) throw unauthenticated('access_code_invalid', 'That access code is not right.');
      return fingerprint;
    },

    /**
     * History, page images and feedback ask what the chat asks: a visitor who gave an earlier code
     * (the owner changed it since) must give the current one before reading their conversation again.
     */
    requireAdmitted(agent: PublishedAgent, granted: string | null) {
      if (!admitted(agent, granted)) throw unauthenticated('access_code_required', 'This assistant asks for an access code.');
    },

    /** Whether the visitor's cookie lets them in as things are (no code asked, or they gave the current one). */
    admitted: (agent: PublishedAgent, granted: string | null) => admitted(agent, granted),

    /** Counts the message against the day's caps (429 when one is reached). */
    count(agent: PublishedAgent, visitorId: string) {
      const { daily_message_cap, visitor_daily_message_cap } = agent.published.config.public;
      usage.take(agent.id, visitorId, { agent: daily_message_cap, visitor: visitor_daily_message_cap });
    },

    /** The chat, as the published version has it; a single new message follows the visitor's last turns. */
    async prepare(agent: PublishedAgent, visitorId: string, messages: ChatMessage[], stream: boolean, signal: AbortSignal): Promise<PreparedChat> {
      const config = agent.published.config;
      if (config.workflow_id !== null) {
        // Its workflow is fixed by the published version; the workflow's own knowledge bases are what it may read.
        const principal = { ...agentPrincipal(agent), knowledgeBaseIds: null };
        return prepareWorkflowChat({ ctx, workflows }, principal, { workflowId: config.workflow_id, model: config.name, messages, signal }).catch(forVisitors);
      }
      let history: ChatMessage[] = [];
      if (messages.length === 1) {
        const earlier = await conversation(agent, visitorId);
        history = earlier.slice(-HISTORY_TURNS).map(({ role, content }) => ({ role, content }));
      }
      const prepared = await chat.prepare(agentPrincipal(agent), agentChatInput(config, { model: config.model, messages: [...history, ...messages], stream }), signal);
      // The page names the agent, not the model behind it (a workspace provider's name is the workspace's business).
      return { ...prepared, model: config.name };
    },

    /** Keeps the question and the answer in the visitor's conversation (its latest messages, see the projection). */
    async record(agent: PublishedAgent, visitorId: string, question: string, prepared: PreparedChat, outcome: ChatOutcome) {
      await prepared.record(outcome);
      // What the page showed: the passages the answer cites (a visitor's history keeps no retrieval context).
      const citations = prepared.cite(outcome.content);
      await handleCommand(ctx.store, agentVisitorDecider, visitorKey(agent.id, visitorId), {
        type: 'RecordExchange',
        data: {
          agent_id: agent.id,
          workspace_id: agent.workspace_id,
          visitor_id: visitorId,
          agent_version: agent.published.version,
          question: { id: questionIdOf(prepared.id), content: question },
          answer: {
            id: prepared.id,
            content: outcome.content,
            citations: citations.map((c) => ({
              index: c.index,
              knowledge_base_id: c.knowledge_base_id,
              chunk_id: c.chunk_id,
              source: c.source,
              page: c.page,
              paragraph: c.paragraph,
              quote: c.quote?.text ?? null,
              document_id: c.document_id,
              document_version: c.document_version,
              char_start: c.char_start,
              char_end: c.char_end,
              has_image: c.boxes.length > 0,
            })),
          },
        },
        metadata: commandMetadata(ctx, `agent:${agent.id}`),
      });
    },

    async history(agent: PublishedAgent, visitorId: string) {
      return { messages: (await conversation(agent, visitorId)).map((m) => publicMessage(agent.slug, m)) };
    },

    /** On an answer the visitor can still see; the same rating and comment again records nothing (the decider's). */
    async feedback(agent: PublishedAgent, visitorId: string, body: { message_id: string; rating: 'up' | 'down'; comment?: string }) {
      if (!(await conversation(agent, visitorId)).some((m) => m.role === 'assistant' && m.id === body.message_id)) throw notFoundError('message_not_found', `No message found with id '${body.message_id}'.`);
      await handleCommand(ctx.store, agentVisitorDecider, visitorKey(agent.id, visitorId), {
        type: 'GiveFeedback',
        data: { agent_id: agent.id, workspace_id: agent.workspace_id, visitor_id: visitorId, message_id: body.message_id, rating: body.rating, comment: body.comment ?? null },
        metadata: commandMetadata(ctx, `agent:${agent.id}`),
      });
    },

    /** A page this visitor's conversation cites, drawn with the passage highlighted; any other page is 404. */
    async pageImage(agent: PublishedAgent, visitorId: string, documentId: string, page: number, span: { char_start?: number; char_end?: number }) {
      const cited = (await conversation(agent, visitorId)).flatMap((m) => m.citations ?? []).find((c) => c.document_id === documentId && c.page === page && c.has_image);
      if (!cited) throw notFoundError('page_not_found', 'No such page in your conversation.');
      const highlight = span.char_start !== undefined && span.char_end !== undefined ? { highlight: cited.chunk_id, ...span } : { highlight: cited.chunk_id };
      return documents.pageImage(agentPrincipal(agent, [cited.knowledge_base_id]), cited.knowledge_base_id, documentId, { page, width: 1000, ...highlight });
    },
  };
}

export type LandingPageService = ReturnType<typeof createLandingPageService>;

/**
 * A conversation as the agent's published version allows it now: an exchange whose answer cites a
 * knowledge base the agent no longer reads is left out, question and answer, so neither the page
 * (history, page images, feedback) nor the next question's earlier turns carry it.
 */
function currentMessages(reads: ReadonlySet<string>, doc: AgentVisitorDoc | null): VisitorMessage[] {
  const messages = doc?.messages ?? [];
  const withheld = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant' || (m.citations ?? []).every((c) => reads.has(c.knowledge_base_id))) continue;
    withheld.add(m.id).add(questionIdOf(m.id));
  }
  return withheld.size === 0 ? messages : messages.filter((m) => !withheld.has(m.id));
}

/** The question's id beside its answer's (record() names both from the chat's id). */
const questionIdOf = (answerId: string) => `msg_${answerId.slice('chatcmpl-'.length)}_q`;

/**
 * A visitor hears that the assistant failed, not why: a run's error names what its nodes reached
 * (internal addresses, a thrown object's fields). The key holder's API and the run keep the detail.
 */
function forVisitors(error: unknown): never {
  if (error instanceof ApiError && error.code === 'agent_workflow_failed') throw new ApiError(502, 'server_error', 'agent_workflow_failed', 'The assistant could not answer this time; please try again later.');
  throw error;
}

const imageUrl = (slug: string, c: { document_id: string; page: number; char_start: number | null; char_end: number | null }) =>
  `/a/${slug}/pages/${encodeURIComponent(c.document_id)}/${c.page}${c.char_start !== null && c.char_end !== null ? `?char_start=${c.char_start}&char_end=${c.char_end}` : ''}`;

/** A fresh citation as the page sees it. */
export const publicCitation = (slug: string, c: Citation): PublicCitation => ({
  index: c.index,
  source: c.source,
  page: c.page,
  paragraph: c.paragraph,
  quote: c.quote?.text ?? null,
  document_version: c.document_version,
  image_url: c.boxes.length > 0 ? imageUrl(slug, c) : null,
});

function publicMessage(slug: string, m: VisitorMessage) {
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    ...(m.citations && {
      citations: m.citations.map((c) => ({
        index: c.index,
        source: c.source,
        page: c.page,
        paragraph: c.paragraph,
        quote: c.quote,
        // Visitor turns recorded before versions cited version 1.
        document_version: c.document_version ?? 1,
        image_url: c.has_image ? imageUrl(slug, c) : null,
      })),
    }),
  };
}
