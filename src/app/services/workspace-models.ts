import { LRUCache } from 'lru-cache';
import type { ModelProviderDoc } from '../../../projections/model-providers/index.ts';
import { modelProviderEvents } from '../../../schemas/events/model-provider.ts';
import { hasType, type RecordedEvent } from '../../../schemas/events/recorded.ts';
import { providerModelRef } from '../../domain/model-provider/model-provider.ts';
import type { ChatModel, ModelInfo } from '../../ports/models.ts';
import type { ProviderChatModelFactory } from '../../ports/provider-models.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import type { SecretStore } from '../../ports/secret-store.ts';
import { allOf, providerModels } from './model-providers.ts';

const PROVIDER_EVENTS = new Set(Object.keys(modelProviderEvents) as (keyof typeof modelProviderEvents)[]);

/**
 * `{provider}/{model}` → the chat model of the caller's workspace's provider, or undefined when
 * the workspace has no such provider or the provider lists no such chat model. A resolved model (its
 * client, holding the decrypted key) is cached for `ttlMs`: `apply` evicts a workspace's entries the
 * moment this process projects one of its providers' events, and the TTL bounds how long a change
 * made through another process goes unseen. Misses are not cached, so a new provider works at once.
 */
export function createWorkspaceModelResolver({
  readModels,
  secrets,
  makeChatModel,
  ttlMs = 30_000,
  maxEntries = 1000,
}: {
  readModels: ReadModelStore;
  secrets: SecretStore;
  makeChatModel: ProviderChatModelFactory;
  ttlMs?: number;
  maxEntries?: number;
}) {
  const cache = new LRUCache<string, { workspaceId: string; model: Promise<ChatModel | undefined> }>({ max: maxEntries, ttl: ttlMs });
  // What GET /v1/models lists for a workspace, read once per TTL and not at every request (most workspaces have none, which is cached too).
  // `models` is set once read, so that a hit answers without waiting on the promise.
  const listings = new LRUCache<string, { read: Promise<ModelInfo[]>; models?: ModelInfo[] }>({ max: maxEntries, ttl: ttlMs });

  async function resolve(workspaceId: string, modelId: string): Promise<ChatModel | undefined> {
    const ref = providerModelRef(modelId);
    if (!ref) return undefined;
    const [provider] = await readModels.find<ModelProviderDoc>('model_providers', { where: { workspace_id: workspaceId, name: ref.provider }, limit: 1 });
    const info = provider && providerModels(provider).find((m) => m.id === modelId && m.kind === 'chat');
    if (!provider || !info) return undefined;
    const apiKey = await secrets.get(workspaceId, provider.secret_ref);
    if (apiKey === null) return undefined;
    return makeChatModel({ baseUrl: provider.base_url, apiKey, model: ref.model, info });
  }

  return {
    async chatModel(workspaceId: string, modelId: string): Promise<ChatModel | undefined> {
      const key = `${workspaceId}\n${modelId}`;
      const cached = cache.get(key);
      if (cached) return cached.model;
      const model = resolve(workspaceId, modelId);
      cache.set(key, { workspaceId, model });
      const resolved = await model.catch((error: unknown) => {
        cache.delete(key);
        throw error;
      });
      if (!resolved) cache.delete(key);
      return resolved;
    },
    /** The models of the workspace's providers, as `{provider}/{model}`. */
    modelsOf(workspaceId: string): Promise<ModelInfo[]> {
      const cached = listings.get(workspaceId);
      if (cached) return cached.read;
      const listing: { read: Promise<ModelInfo[]>; models?: ModelInfo[] } = {
        read: allOf<ModelProviderDoc>(readModels, 'model_providers', workspaceId).then((docs) => (listing.models = docs.flatMap(providerModels))),
      };
      listings.set(workspaceId, listing);
      listing.read.catch(() => listings.get(workspaceId) === listing && listings.delete(workspaceId));
      return listing.read;
    },
    /** The workspace's listing if it was read and is still current, else undefined (then ask modelsOf). */
    listedModels: (workspaceId: string): ModelInfo[] | undefined => listings.get(workspaceId)?.models,
    /** Hears every committed batch: a provider's change evicts its workspace's cached models and listing. */
    apply(batch: readonly RecordedEvent[]) {
      const workspaces = new Set(batch.filter((event) => hasType(PROVIDER_EVENTS, event)).map((event) => event.data.workspace_id));
      if (workspaces.size === 0) return;
      for (const [key, entry] of cache.entries()) if (workspaces.has(entry.workspaceId)) cache.delete(key);
      for (const workspaceId of workspaces) listings.delete(workspaceId);
    },
  };
}

export type WorkspaceModelResolver = ReturnType<typeof createWorkspaceModelResolver>;
