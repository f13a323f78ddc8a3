import { randomBytes } from 'node:crypto';
import type { AgentDoc, AgentVersionDoc } from '../../../projections/agents/index.ts';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { AgentConfig } from '../../../schemas/events/agent.ts';
import type { Agent, AgentVersion, CreateAgentBody, UpdateAgentBody } from '../../../schemas/http/agents.ts';
import { agentDecider } from '../../domain/agent/agent.ts';
import { notAModelMessage } from '../../domain/shared/errors.ts';
import { ApiError } from '../../ports/api-error.ts';
import type { ChatModel } from '../../ports/models.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { badRequest, notFoundError, resourceNotFound } from '../errors.ts';
import { hashAccessCode } from './agent-access-code.ts';
import { knowledgeBasesOfAgent, knowledgeBasesOfConfig } from './agent-knowledge-bases.ts';
import { findPage, type PageRequest } from './paging.ts';
import { type Principal, requireKnowledgeBasesAccess, requireScope, visibleTo } from './principal.ts';
import type { WorkflowService } from './workflows.ts';
import type { WorkspaceModelResolver } from './workspace-models.ts';

export type AgentDeps = {
  ctx: AppContext;
  chatModels: ReadonlyMap<string, ChatModel>;
  workspaceModels?: Pick<WorkspaceModelResolver, 'chatModel'>;
  workflows: Pick<WorkflowService, 'workflow'>;
};

export const publicUrl = (slug: string) => `/a/${slug}`;

/** The landing page's address: random and url-safe (16 characters, 96 bits), unrelated to the agent's id. */
/** 96 random bits, url-safe; never starting with `_` or `-`, since `/assets/landing/…` is the page's own files. */
function newSlug(): string {
  for (;;) {
    const slug = randomBytes(12).toString('base64url');
    if (/^[A-Za-z0-9]/.test(slug)) return slug;
  }
}

function presentConfig(config: AgentConfig) {
  const { access_code_hash, ...visible } = config.public;
  return { ...config, public: { access_code_set: access_code_hash !== null, ...visible } };
}

export function presentAgent(doc: AgentDoc): Agent {
  return {
    id: doc.id,
    object: 'agent',
    status: doc.published ? 'published' : 'draft',
    published_version: doc.published?.version ?? null,
    public_url: doc.published ? publicUrl(doc.slug) : null,
    ...presentConfig(doc.draft),
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

const presentVersion = (doc: AgentVersionDoc): AgentVersion => ({
  object: 'agent.version',
  agent_id: doc.agent_id,
  version: doc.version,
  published_at: doc.published_at,
  ...presentConfig(doc.config),
});

/** How long another process's publish may take to show in GET /v1/models (this process's own show at once). */
const PUBLISHED_TTL_MS = 5_000;

export function createAgentService({ ctx, chatModels, workspaceModels, workflows }: AgentDeps) {
  /**
   * The workspace's published agents, cached: GET /v1/models asks on every request and answers
   * from a cached listing otherwise (docs/benchmarks.md). This service's own changes evict the
   * workspace's entry; another process's show within the TTL.
   */
  const publishedCache = new Map<string, { until: number; docs: Promise<AgentDoc[]> }>();
  const evict = (workspaceId: string) => publishedCache.delete(workspaceId);
  function publishedOf(workspaceId: string): Promise<AgentDoc[]> {
    const cached = publishedCache.get(workspaceId);
    if (cached && cached.until > Date.now()) return cached.docs;
    const docs = ctx.readModels.find<AgentDoc>('agents', { where: { workspace_id: workspaceId } }).then((all) => all.filter((doc) => doc.published !== null));
    publishedCache.set(workspaceId, { until: Date.now() + PUBLISHED_TTL_MS, docs });
    docs.catch(() => evict(workspaceId));
    return docs;
  }
  /** An agent of the caller's workspace that the key may read (all of its knowledge bases), or 404 / 403. */
  async function agent(principal: Principal, id: string): Promise<AgentDoc> {
    const doc = await ctx.readModels.get<AgentDoc>('agents', id);
    if (!doc || doc.workspace_id !== principal.workspaceId) throw resourceNotFound('agent', id);
    requireKnowledgeBasesAccess(principal, knowledgeBasesOfAgent(doc));
    return doc;
  }

  /** What a config names exists in this workspace, and the key may use it. */
  async function checkReferences(principal: Principal, config: AgentConfig) {
    const known = chatModels.get(config.model) ?? (await workspaceModels?.chatModel(principal.workspaceId, config.model));
    if (!known) throw badRequest('model_not_found', `model: ${notAModelMessage(config.model, 'chat')}`, 'model');
    requireKnowledgeBasesAccess(principal, config.knowledge_base_ids);
    const kbs = await ctx.readModels.getMany<KnowledgeBaseDoc>('knowledge_bases', config.knowledge_base_ids);
    for (const kbId of config.knowledge_base_ids) {
      if (kbs.get(kbId)?.workspace_id !== principal.workspaceId) throw resourceNotFound('knowledge_base', kbId, 'knowledge_base_ids');
    }
    if (config.workflow_id === null) return;
    // A workflow-backed agent belongs to every knowledge base (knowledgeBasesOfConfig): a key that
    // could not read it is refused here, before anything is appended, not by the read that follows.
    if (principal.knowledgeBaseIds !== null) {
      throw new ApiError(
        403,
        'permission_error',
        'knowledge_base_not_allowed',
        'This API key is limited to certain knowledge bases and cannot make an agent answer from a workflow: a workflow-backed agent counts as using every knowledge base, since its workflow’s can change.',
        { param: 'workflow_id' },
      );
    }
    // The workflow service's own check: in this workspace, and every knowledge base it names readable by the key.
    await workflows.workflow(principal, config.workflow_id);
  }

  /** Every version the agent ever published (they go with it when it is deleted). */
  const versionsOf = (id: string) => ctx.readModels.find<AgentVersionDoc>('agent_versions', { where: { agent_id: id } });

  async function publicSettings(body: CreateAgentBody['public'], current: AgentConfig['public'] | null): Promise<AgentConfig['public']> {
    const code = body?.access_code;
    return {
      access_code_hash: code === undefined ? (current?.access_code_hash ?? null) : code === null ? null : await hashAccessCode(code),
      allowed_origins: body?.allowed_origins ?? current?.allowed_origins ?? [],
      daily_message_cap: body?.daily_message_cap === undefined ? (current?.daily_message_cap ?? null) : body.daily_message_cap,
      visitor_daily_message_cap: body?.visitor_daily_message_cap === undefined ? (current?.visitor_daily_message_cap ?? null) : body.visitor_daily_message_cap,
    };
  }

  async function command(principal: Principal, id: string, type: 'PublishAgent' | 'UnpublishAgent' | 'DeleteAgent', correlationId?: string) {
    const result = await handleCommand(ctx.store, agentDecider, id, {
      type,
      data: { agent_id: id, workspace_id: principal.workspaceId },
      metadata: commandMetadata(ctx, principal.keyId, correlationId),
    });
    await settled(ctx, result);
    // Once the read model shows the change: a listing read in between would otherwise be kept.
    evict(principal.workspaceId);
    return result;
  }

  return {
    agent,

    async create(principal: Principal, body: CreateAgentBody, correlationId?: string): Promise<Agent> {
      const config: AgentConfig = {
        name: body.name,
        instructions: body.instructions ?? null,
        model: body.model,
        knowledge_base_ids: [...new Set(body.knowledge_base_ids ?? [])],
        workflow_id: body.workflow_id ?? null,
        opening_message: body.opening_message ?? null,
        suggested_questions: body.suggested_questions ?? [],
        retrieval: body.retrieval ?? {},
        public: await publicSettings(body.public, null),
      };
      await checkReferences(principal, config);
      const id = ctx.newId('agt');
      const result = await handleCommand(ctx.store, agentDecider, id, {
        type: 'CreateAgent',
        data: { agent_id: id, workspace_id: principal.workspaceId, slug: newSlug(), config },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      await settled(ctx, result);
      return presentAgent(await agent(principal, id));
    },

    async list(principal: Principal, page: PageRequest) {
      const visible = visibleTo(principal, knowledgeBasesOfAgent);
      return findPage(ctx.readModels, 'agents', { workspace_id: principal.workspaceId }, page, { present: presentAgent, visible });
    },

    get: async (principal: Principal, id: string) => presentAgent(await agent(principal, id)),

    async update(principal: Principal, id: string, body: UpdateAgentBody, correlationId?: string): Promise<Agent> {
      const current = (await agent(principal, id)).draft;
      const { public: pub, knowledge_base_ids, ...rest } = body;
      const config: AgentConfig = {
        ...current,
        ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
        ...(knowledge_base_ids && { knowledge_base_ids: [...new Set(knowledge_base_ids)] }),
        public: await publicSettings(pub, current.public),
      };
      await checkReferences(principal, config);
      const result = await handleCommand(ctx.store, agentDecider, id, {
        type: 'UpdateAgent',
        data: { agent_id: id, workspace_id: principal.workspaceId, config },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      await settled(ctx, result);
      // Who may see a published agent depends on its draft's knowledge bases too.
      evict(principal.workspaceId);
      return presentAgent(await agent(principal, id));
    },

    async remove(principal: Principal, id: string, correlationId?: string) {
      await agent(principal, id);
      // Deleting touches every version, not only the draft and the published one (docs/access-control.md).
      for (const v of await versionsOf(id)) requireKnowledgeBasesAccess(principal, knowledgeBasesOfConfig(v.config));
      await command(principal, id, 'DeleteAgent', correlationId);
      return { id, object: 'agent.deleted' as const, deleted: true as const };
    },

    /** Freezes the draft as the next version; its references are checked again (they may have gone since). */
    async publish(principal: Principal, id: string, correlationId?: string) {
      const doc = await agent(principal, id);
      await checkReferences(principal, doc.draft);
      const result = await command(principal, id, 'PublishAgent', correlationId);
      const published = result.events[0];
      if (published?.type !== 'AgentPublished') throw new Error('publishing appended no AgentPublished');
      return { version: published.data.version, slug: doc.slug, name: doc.draft.name };
    },

    async unpublish(principal: Principal, id: string, correlationId?: string): Promise<Agent> {
      await agent(principal, id);
      await command(principal, id, 'UnpublishAgent', correlationId);
      return presentAgent(await agent(principal, id));
    },

    async versions(principal: Principal, id: string, page: PageRequest) {
      await agent(principal, id);
      // Each version is shown only to keys that may read what it answered from, as the agent itself is (a list leaves the others out).
      const visible = visibleTo(principal, (v: AgentVersionDoc) => knowledgeBasesOfConfig(v.config));
      return findPage(ctx.readModels, 'agent_versions', { agent_id: id }, page, { present: presentVersion, visible });
    },

    /**
     * The config a chat with `model: "agt_…"` answers with: the published version, or the draft
     * (`agent_version: "draft"`, which takes write scope: it is not public yet).
     */
    async forChat(principal: Principal, id: string, version: 'published' | 'draft'): Promise<{ doc: AgentDoc; config: AgentConfig; version: number | 'draft' }> {
      const doc = await agent(principal, id);
      if (version === 'draft') {
        requireScope(principal, 'write');
        return { doc, config: doc.draft, version: 'draft' };
      }
      if (!doc.published) throw notFoundError('agent_not_published', `Agent '${id}' is not published; publish it, or send agent_version: "draft" to talk to its draft.`, 'model');
      return { doc, config: doc.published.config, version: doc.published.version };
    },

    /** The published agents the key may read, for GET /v1/models. */
    async published(principal: Principal): Promise<AgentDoc[]> {
      const visible = visibleTo(principal, knowledgeBasesOfAgent);
      const all = await publishedOf(principal.workspaceId);
      return visible ? all.filter(visible) : all;
    },

    /** The landing page's agent: published, by its slug; null otherwise (no key here: the slug is the capability). */
    async bySlug(slug: string): Promise<(AgentDoc & { published: NonNullable<AgentDoc['published']> }) | null> {
      const [doc] = await ctx.readModels.find<AgentDoc>('agents', { where: { slug }, limit: 1 });
      return doc?.published ? (doc as AgentDoc & { published: NonNullable<AgentDoc['published']> }) : null;
    },
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
