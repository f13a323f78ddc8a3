import { LRUCache } from 'lru-cache';
import type { ModelProviderDoc } from '../../../projections/model-providers/index.ts';
import { modelProviderEvents } from '../../../schemas/events/model-provider.ts';
import { hasType, type RecordedEvent } from '../../../schemas/events/recorded.ts';
import { providerModelRef } from '../../domain/model-provider/model-provider.ts';
import { ApiError } from '../../ports/api-error.ts';
import type { ChatModel, Embedder, ModelInfo, Reranker } from '../../ports/models.ts';
import type { ProviderModelFactories, ProviderModelSpec } from '../../ports/provider-models.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import type { SecretStore } from '../../ports/secret-store.ts';
import { allOf, providerModels } from './model-providers.ts';

const PROVIDER_EVENTS = new Set(Object.keys(modelProviderEvents) as (keyof typeof modelProviderEvents)[]);

type Kind = ModelInfo['kind'];
type Client = ChatModel | Embedder | Reranker;

/**
 * The provider and its model are there but its key is not in this process's secret store (one with
 * a data directory of its own, docs/model-providers.md): a fault of the deployment, said as one
 * rather than as a model that does not exist. A 503, so a consumer's retries may outlast a key
 * being replaced at that moment.
 */
const keyUnavailable = (provider: string) =>
  new ApiError(503, 'server_error', 'provider_key_unavailable', `The API key of model provider '${provider}' is not in this server's secret store.`);

/** What a provider's model entry tells, with its key: enough to build its client. */
type Found = ProviderModelSpec & { dimensions?: number };

/**
 * `{provider}/{model}` → the chat model, embedder or reranker of that workspace's provider, or
 * undefined when the workspace has no such provider or the provider lists no such model of that
 * type (another workspace's provider is never looked at: the lookup is by workspace); a 503 when
 * its key cannot be read here. An embedding model without `dimensions` in its entry is undefined
 * too: its vectors could not be checked. A resolved model (its client, holding the decrypted key)
 * is cached for `ttlMs`: `apply` evicts a workspace's entries the moment this process projects one
 * of its providers' events, and the TTL bounds how long a change made through another process goes
 * unseen. Misses and failures are not cached, so a new provider works at once.
 */
export function createWorkspaceModelResolver({
  readModels,
  secrets,
  makeChatModel,
  makeEmbedder,
  makeReranker,
  ttlMs = 30_000,
  maxEntries = 1000,
}: ProviderModelFactories & {
  readModels: ReadModelStore;
  secrets: SecretStore;
  ttlMs?: number;
  maxEntries?: number;
}) {
  const cache = new LRUCache<string, { workspaceId: string; model: Promise<Client | undefined> }>({ max: maxEntries, ttl: ttlMs });
  // What GET /v1/models lists for a workspace, read once per TTL and not at every request (most workspaces have none, which is cached too).
  // `models` is set once read, so that a hit answers without waiting on the promise.
  const listings = new LRUCache<string, { read: Promise<ModelInfo[]>; models?: ModelInfo[] }>({ max: maxEntries, ttl: ttlMs });

  /** The workspace's provider named by the id, and its entry for the model of that type. */
  async function entryOf(workspaceId: string, modelId: string, kind: Kind) {
    const ref = providerModelRef(modelId);
    if (!ref) return undefined;
    const [provider] = await readModels.find<ModelProviderDoc>('model_providers', { where: { workspace_id: workspaceId, name: ref.provider }, limit: 1 });
    const entry = provider?.models.find((m) => m.id === ref.model && m.type === kind);
    return provider && entry ? { provider, entry, model: ref.model } : undefined;
  }

  /** The provider's entry for the model, with the key; undefined when any of them is missing. */
  async function find(workspaceId: string, modelId: string, kind: Kind): Promise<Found | undefined> {
    const found = await entryOf(workspaceId, modelId, kind);
    const info = found && providerModels(found.provider).find((m) => m.id === modelId && m.kind === kind);
    if (!found || !info) return undefined;
    const { provider, entry } = found;
    const apiKey = await secrets.get(workspaceId, provider.secret_ref);
    if (apiKey === null) throw keyUnavailable(provider.name);
    return { baseUrl: provider.base_url, apiKey, model: found.model, info, ...(entry.dimensions !== undefined && { dimensions: entry.dimensions }) };
  }

  async function build(workspaceId: string, modelId: string, kind: Kind): Promise<Client | undefined> {
    const found = await find(workspaceId, modelId, kind);
    if (!found) return undefined;
    if (kind === 'chat') return makeChatModel(found);
    if (kind === 'rerank') return makeReranker(found);
    const { dimensions } = found;
    return dimensions === undefined ? undefined : makeEmbedder({ ...found, dimensions });
  }

  async function resolve(workspaceId: string, modelId: string, kind: Kind): Promise<Client | undefined> {
    const key = `${workspaceId}\n${kind}\n${modelId}`;
    const cached = cache.get(key);
    if (cached) return cached.model;
    const model = build(workspaceId, modelId, kind);
    cache.set(key, { workspaceId, model });
    const resolved = await model.catch((error: unknown) => {
      cache.delete(key);
      throw error;
    });
    if (!resolved) cache.delete(key);
    return resolved;
  }

  return {
    chatModel: (workspaceId: string, modelId: string) => resolve(workspaceId, modelId, 'chat') as Promise<ChatModel | undefined>,
    embedder: (workspaceId: string, modelId: string) => resolve(workspaceId, modelId, 'embedding') as Promise<Embedder | undefined>,
    reranker: (workspaceId: string, modelId: string) => resolve(workspaceId, modelId, 'rerank') as Promise<Reranker | undefined>,
    /** The provider's entry for the model (its dimensions for an embedding model), without building a client: what settings are checked against. */
    async entryOf(workspaceId: string, modelId: string, kind: Kind): Promise<{ dimensions?: number } | undefined> {
      const found = await entryOf(workspaceId, modelId, kind);
      return found && (found.entry.dimensions === undefined ? {} : { dimensions: found.entry.dimensions });
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
