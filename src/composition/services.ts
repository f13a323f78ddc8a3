import type { AppContext } from '../app/context.ts';
import type { GroundChat } from '../app/services/chat-grounding.ts';
import { createAgentService } from '../app/services/agents.ts';
import { createChatService } from '../app/services/chat.ts';
import { createLandingPageService } from '../app/services/landing-page.ts';
import { createLandingUsage } from '../app/services/landing-usage.ts';
import { chatWithAgents } from '../app/services/chat-agent.ts';
import { chatWithConversations } from '../app/services/chat-conversation.ts';
import type { Authenticator } from '../app/services/api-keys.ts';
import { createConsoleSessions } from '../app/services/console-sessions.ts';
import { createConversationService } from '../app/services/conversations.ts';
import { createDocumentService } from '../app/services/documents.ts';
import { createEmbeddingsService } from '../app/services/embeddings.ts';
import { createFeedbackService } from '../app/services/feedback.ts';
import { createFileService } from '../app/services/files.ts';
import { createKnowledgeBaseService } from '../app/services/knowledge-bases.ts';
import type { ModelCatalog } from '../app/services/models.ts';
import { createSecretService } from '../app/services/secrets.ts';
import { createWorkflowDebugger } from '../app/services/workflow-debugger.ts';
import type { CodeRunner } from '../app/workflow-engine/code-runner.ts';
import type { EngineDeps } from '../app/workflow-engine/types.ts';
import { parseHostAllowList } from '../lib/address-policy.ts';
import { createModelProviderService } from '../app/services/model-providers.ts';
import type { ModelProviderProbe } from '../ports/model-provider-probe.ts';
import type { WorkspaceModelResolver } from '../app/services/workspace-models.ts';
import { createResponsesService } from '../app/services/responses.ts';
import type { SearchService } from '../app/services/search.ts';
import { createVectorStoreBatches } from '../app/services/vector-store-batches.ts';
import { createVectorStoreSearch } from '../app/services/vector-store-search.ts';
import { createVectorStoreService } from '../app/services/vector-stores.ts';
import { createWorkflowService } from '../app/services/workflows.ts';
import type { BlobStore } from '../ports/blob-store.ts';
import type { ChatModel, Embedder } from '../ports/models.ts';
import type { PageRenderer } from '../ports/page-renderer.ts';
import type { PassageStore } from '../ports/passage-store.ts';
import type { SecretStore } from '../ports/secret-store.ts';

export type ServiceDeps = {
  ctx: AppContext;
  models: ModelCatalog;
  search: SearchService;
  groundChat: GroundChat;
  chatModels: ReadonlyMap<string, ChatModel>;
  embedders: ReadonlyMap<string, Embedder>;
  passages: PassageStore;
  blobs: BlobStore;
  renderer: PageRenderer;
  /** Encrypted values by reference: secrets' and model providers' keys. */
  secrets: SecretStore;
  /** Asks a workspace's provider for its models (test and discover). */
  probe: ModelProviderProbe;
  /** The chat, embedding and rerank models of each workspace's own providers. */
  workspaceModels: WorkspaceModelResolver;
  /** Whether a chat's question and answer go into its event (KBQA_STORE_CHAT_CONTENT). */
  storeContent: boolean;
  /** Bearer keys to principals: the console's sessions authenticate their sealed key with it. */
  authenticator: Authenticator;
  /** Seals the console's session cookies (derived from the master key: composition/infrastructure.ts). */
  consoleSessionKey: Buffer;
  /** What workflow nodes may use beyond the services: chat's context budget and the hosts http_request may reach (KBQA_WORKFLOW_HTTP_ALLOW_HOSTS). */
  workflowLimits: { maxContextTokens: number; httpAllowHosts: readonly string[] };
  /** The code nodes' sandbox threads (KBQA_CODE_THREADS); without it, the process's shared pool. */
  code?: CodeRunner;
};

/**
 * Every application service, built once for the process: the routes of every capability, the MCP
 * tools and the workers are handed these, never build their own.
 */
export function createServices(deps: ServiceDeps) {
  const { ctx, models, search, blobs } = deps;
  const conversations = createConversationService(ctx);
  const secrets = createSecretService(ctx, deps.secrets);
  // One engine for the runner's runs and the debugger's single nodes: a node behaves the same in both.
  const workflowEngine: EngineDeps = {
    ctx,
    search,
    chatModels: deps.chatModels,
    workspaceModels: deps.workspaceModels,
    maxContextTokens: deps.workflowLimits.maxContextTokens,
    // The deployment's own embedder (owned by kbqa), never a provider's: classifying must not cost a network call.
    offlineEmbedder: [...deps.embedders.values()].find((embedder) => embedder.model.ownedBy === 'kbqa'),
    httpAllow: parseHostAllowList(deps.workflowLimits.httpAllowHosts),
    code: deps.code,
    secrets,
  };
  const workflows = createWorkflowService(ctx, models, deps.workspaceModels);
  const agents = createAgentService({ ctx, chatModels: deps.chatModels, workspaceModels: deps.workspaceModels, workflows });
  // An agent resolves to its model, knowledge bases and instructions first; a conversation's history goes before all of it.
  const chat = chatWithConversations(
    chatWithAgents(createChatService({ ctx, search, groundChat: deps.groundChat, chatModels: deps.chatModels, workspaceModels: deps.workspaceModels, storeContent: deps.storeContent }), agents, { ctx, workflows }),
    conversations,
  );
  const knowledgeBases = createKnowledgeBaseService(ctx, models, deps.workspaceModels);
  const documents = createDocumentService(ctx, deps.passages, { blobs, renderer: deps.renderer });
  const files = createFileService(ctx, blobs);
  const vectorStores = createVectorStoreService(ctx, { knowledgeBases, documents, files });
  return {
    ctx,
    models,
    search,
    chat,
    conversations,
    feedback: createFeedbackService(ctx, conversations),
    knowledgeBases,
    documents,
    workflows,
    workflowEngine,
    workflowDebugger: createWorkflowDebugger({ ctx, workflows, engine: workflowEngine }),
    agents,
    // Its daily counts live in this process (landing-usage.ts says why).
    landingPage: createLandingPageService({ ctx, agents, chat, documents, workflows, usage: createLandingUsage(ctx.now) }),
    responses: createResponsesService({ ctx, search }),
    embeddings: createEmbeddingsService(deps.embedders, deps.workspaceModels),
    files,
    vectorStores,
    vectorStoreSearch: createVectorStoreSearch({ search, stores: vectorStores, readModels: ctx.readModels }),
    vectorStoreBatches: createVectorStoreBatches(vectorStores, ctx.now),
    secrets,
    modelProviders: createModelProviderService(ctx, deps.secrets, deps.probe, (id) => models.get(id) !== undefined),
    // The workspace providers' models, resolved and listed through one cache that their events evict.
    workspaceModels: deps.workspaceModels,
    consoleSessions: createConsoleSessions({ authenticator: deps.authenticator, key: deps.consoleSessionKey, now: ctx.now }),
  };
}

export type Services = ReturnType<typeof createServices>;
