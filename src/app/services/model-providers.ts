import type { AgentDoc } from '../../../projections/agents/index.ts';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { ModelProviderDoc } from '../../../projections/model-providers/index.ts';
import type { ModelProvider } from '../../../schemas/http/model-providers.ts';
import { agentUses, knowledgeBaseUses, type ModelUser, strandedBy, usersOf } from '../../domain/model-provider/in-use.ts';
import { type ProviderChanges, modelProviderDecider } from '../../domain/model-provider/model-provider.ts';
import { ApiError } from '../../ports/api-error.ts';
import type { ModelProviderProbe } from '../../ports/model-provider-probe.ts';
import type { ModelInfo } from '../../ports/models.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import type { SecretStore } from '../../ports/secret-store.ts';
import { handleCommand } from '../command-handler.ts';
import { claimProviderName, releaseProviderName } from '../provider-names.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { resourceNotFound } from '../errors.ts';
import { findPage, type PageRequest } from './paging.ts';
import { type Principal, requireWorkspaceWide } from './principal.ts';
import { secretHint } from './secret-hint.ts';

type NewProvider = { name: string; base_url: string; api_key: string; models: ModelProviderDoc['models'] };
type ProviderPatch = Partial<NewProvider>;

/** The public face of a provider: never its key, nor where the key is kept. */
export const presentProvider = ({ workspace_id: _ws, secret_ref: _ref, ...visible }: ModelProviderDoc): ModelProvider => visible;

const conflictError = (code: string, message: string, param: string | null = null) => new ApiError(409, 'conflict_error', code, message, { param });
const nameTaken = (name: string) => conflictError('model_provider_name_taken', `A model provider named '${name}' already exists in this workspace.`, 'name');

/** Every document of a workspace in a collection, a page at a time (a workspace has few providers and knowledge bases). */
export async function allOf<Doc extends { id: string }>(readModels: ReadModelStore, collection: string, workspaceId: string): Promise<Doc[]> {
  const docs: Doc[] = [];
  for (let after: string | undefined; ; ) {
    const page = await readModels.find<Doc>(collection, { where: { workspace_id: workspaceId }, order: 'asc', after, limit: 500 });
    docs.push(...page);
    if (page.length < 500) return docs;
    after = page[page.length - 1]!.id;
  }
}

/** A provider's models as /v1/models lists them: `{provider}/{model}`, owned by the provider's name. */
export function providerModels(provider: ModelProviderDoc): ModelInfo[] {
  const created = Math.floor(Date.parse(provider.created_at) / 1000);
  return provider.models.map((m) => ({ id: `${provider.name}/${m.id}`, kind: m.type, ownedBy: provider.name, created }));
}

/**
 * A workspace's model providers. The key goes to the SecretStore under a fresh ref before the
 * event that names the ref (an event never points at nothing) and is destroyed again when the
 * command is refused; a replaced or deleted provider's key is destroyed once the event that drops
 * it is appended, by the ref that event names.
 *
 * A name is held by a claim of its own stream (app/provider-names.ts) from before the provider is
 * created or renamed until it is deleted or renamed again, so two requests racing for one name
 * cannot both have it.
 *
 * While knowledge bases or agents name a provider's models, it is neither deleted nor renamed, nor
 * are those models dropped (409 `in_use` naming them). `isDeploymentModel`: ids the deployment
 * serves are its own even with a slash (`intfloat/e5-large-v2`), so they hold no provider of that name.
 */
export function createModelProviderService(ctx: AppContext, secrets: SecretStore, probe: ModelProviderProbe, isDeploymentModel: (id: string) => boolean = () => false) {
  const { readModels } = ctx;

  async function find(principal: Principal, id: string): Promise<ModelProviderDoc> {
    requireWorkspaceWide(principal, 'model providers');
    const doc = await readModels.get<ModelProviderDoc>('model_providers', id);
    if (!doc || doc.workspace_id !== principal.workspaceId) throw resourceNotFound('model_provider', id);
    return doc;
  }

  /** What names models in the workspace: its knowledge bases and its agents, each told apart in a refusal. */
  async function modelUsers(workspaceId: string) {
    const [kbs, agents] = await Promise.all([allOf<KnowledgeBaseDoc>(readModels, 'knowledge_bases', workspaceId), allOf<AgentDoc>(readModels, 'agents', workspaceId)]);
    return { knowledgeBases: kbs.map(knowledgeBaseUses), agents: agents.map(agentUses) };
  }

  /** `pick` finds the users concerned among each kind; a refusal names them all, or there is none. */
  async function refuseIfUsed(provider: ModelProviderDoc, pick: (users: ModelUser[]) => string[], cannot: string, uses: string) {
    const { knowledgeBases, agents } = await modelUsers(provider.workspace_id);
    const named = [['knowledge bases', pick(knowledgeBases)], ['agents', pick(agents)]] as const;
    const found = named.filter(([, labels]) => labels.length > 0).map(([kind, labels]) => `${kind} ${labels.join(', ')}`);
    if (found.length === 0) return;
    throw conflictError('in_use', `Cannot ${cannot} model provider '${provider.name}': ${found.join(' and ')} ${uses}. Change their models first (a knowledge base's embedding_model and rerank.model, an agent's model).`);
  }

  /** Knowledge bases and agents name the provider's models by its name: deleting or renaming it would strand them. */
  const requireUnused = (provider: ModelProviderDoc, doing: string) =>
    refuseIfUsed(provider, (users) => usersOf(provider.name, users, isDeploymentModel), doing, 'use its models');

  /** A model they use may not leave the list, nor an embedding model change its dimensions. */
  const requireModelsKept = (provider: ModelProviderDoc, models: ModelProviderDoc['models']) =>
    refuseIfUsed(provider, (users) => strandedBy(provider.name, models, provider.models, users, isDeploymentModel), 'change the models of', 'use the models dropped or resized');

  async function keyOf(provider: ModelProviderDoc): Promise<string> {
    const key = await secrets.get(provider.workspace_id, provider.secret_ref);
    if (key === null) throw new Error(`the API key of model provider ${provider.id} is missing from the secret store`);
    return key;
  }

  return {
    async create(principal: Principal, body: NewProvider, correlationId?: string): Promise<ModelProvider> {
      requireWorkspaceWide(principal, 'model providers');
      const workspaceId = principal.workspaceId;
      const id = ctx.newId('mp');
      const metadata = commandMetadata(ctx, principal.keyId, correlationId);
      const claim = { workspaceId, name: body.name, providerId: id };
      if (!(await claimProviderName(ctx, claim, metadata))) throw nameTaken(body.name);
      const ref = ctx.newId('sec');
      try {
        await secrets.put(workspaceId, ref, body.api_key);
        const result = await handleCommand(ctx.store, modelProviderDecider, id, {
          type: 'CreateModelProvider',
          data: { provider_id: id, workspace_id: workspaceId, name: body.name, base_url: body.base_url, secret_ref: ref, api_key_hint: secretHint(body.api_key), models: body.models },
          metadata,
        });
        await settled(ctx, result);
      } catch (error) {
        await secrets.delete(workspaceId, ref);
        await releaseProviderName(ctx, claim, metadata);
        throw error;
      }
      return presentProvider((await readModels.get<ModelProviderDoc>('model_providers', id))!);
    },

    list(principal: Principal, page: PageRequest) {
      requireWorkspaceWide(principal, 'model providers');
      return findPage(readModels, 'model_providers', { workspace_id: principal.workspaceId }, page, { present: presentProvider });
    },

    async get(principal: Principal, id: string): Promise<ModelProvider> {
      return presentProvider(await find(principal, id));
    },

    async update(principal: Principal, id: string, patch: ProviderPatch, correlationId?: string): Promise<ModelProvider> {
      const current = await find(principal, id);
      const metadata = commandMetadata(ctx, principal.keyId, correlationId);
      const renamed = patch.name !== undefined && patch.name !== current.name;
      const newName = { workspaceId: current.workspace_id, name: patch.name ?? current.name, providerId: id };
      if (renamed) {
        // Knowledge bases and agents name the provider's models by its name: renaming would strand them.
        await requireUnused(current, 'rename');
        if (!(await claimProviderName(ctx, newName, metadata))) throw nameTaken(newName.name);
      }
      if (patch.models !== undefined) await requireModelsKept(current, patch.models);
      const changes: ProviderChanges = {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.base_url !== undefined && { base_url: patch.base_url }),
        ...(patch.models !== undefined && { models: patch.models }),
      };
      const newRef = patch.api_key === undefined ? null : ctx.newId('sec');
      try {
        if (newRef !== null) {
          await secrets.put(current.workspace_id, newRef, patch.api_key!);
          Object.assign(changes, { secret_ref: newRef, api_key_hint: secretHint(patch.api_key!) });
        }
        const result = await handleCommand(ctx.store, modelProviderDecider, id, {
          type: 'UpdateModelProvider',
          data: { provider_id: id, workspace_id: principal.workspaceId, changes },
          metadata,
        });
        await settled(ctx, result);
      } catch (error) {
        if (newRef !== null) await secrets.delete(current.workspace_id, newRef);
        if (renamed) await releaseProviderName(ctx, newName, metadata);
        throw error;
      }
      if (newRef !== null) await secrets.delete(current.workspace_id, current.secret_ref);
      if (renamed) await releaseProviderName(ctx, { ...newName, name: current.name }, metadata);
      return presentProvider((await readModels.get<ModelProviderDoc>('model_providers', id))!);
    },

    async delete(principal: Principal, id: string, correlationId?: string) {
      const current = await find(principal, id);
      await requireUnused(current, 'delete');
      const metadata = commandMetadata(ctx, principal.keyId, correlationId);
      const result = await handleCommand(ctx.store, modelProviderDecider, id, {
        type: 'DeleteModelProvider',
        data: { provider_id: id, workspace_id: principal.workspaceId },
        metadata,
      });
      for (const event of result.events) {
        if (event.type !== 'ModelProviderDeleted') continue;
        await secrets.delete(event.data.workspace_id, event.data.secret_ref);
        await releaseProviderName(ctx, { workspaceId: event.data.workspace_id, name: event.data.name, providerId: id }, metadata);
      }
      await settled(ctx, result);
    },

    /** Whether the provider answers GET {base_url}/models with its key, and if not, why. */
    async check(principal: Principal, id: string) {
      const provider = await find(principal, id);
      const result = await probe.listModels(provider.base_url, await keyOf(provider));
      return { ok: result.ok, latency_ms: result.latencyMs, ...(!result.ok && { error: result.error }) };
    },

    /** The provider's own model list; a provider that cannot be asked is a 502 saying why. */
    async discover(principal: Principal, id: string) {
      const provider = await find(principal, id);
      const result = await probe.listModels(provider.base_url, await keyOf(provider));
      if (!result.ok) throw new ApiError(502, 'server_error', `provider_${result.error.code}`, result.error.message);
      return { object: 'list' as const, data: result.models };
    },
  };
}

export type ModelProviderService = ReturnType<typeof createModelProviderService>;
