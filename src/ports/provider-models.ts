import type { ChatModel, Embedder, ModelInfo, Reranker } from './models.ts';

/** A workspace provider's model, as the app asks for one: where it is, the key, the provider's id of it, and how /v1 names it. */
export type ProviderModelSpec = { baseUrl: string; apiKey: string; model: string; info: ModelInfo };

/** Builds the client of a workspace provider's chat model (the composition root picks the adapter). */
export type ProviderChatModelFactory = (spec: ProviderModelSpec) => Promise<ChatModel>;

/** An embedding model's client; `dimensions` is the provider entry's, which the vectors must have. */
export type ProviderEmbedderFactory = (spec: ProviderModelSpec & { dimensions: number }) => Promise<Embedder>;

/** A rerank model's client (Cohere/Jina-style `POST {base_url}/rerank`). */
export type ProviderRerankerFactory = (spec: ProviderModelSpec) => Promise<Reranker>;

/** The three, as the composition root hands them to the workspace model resolver. */
export type ProviderModelFactories = { makeChatModel: ProviderChatModelFactory; makeEmbedder: ProviderEmbedderFactory; makeReranker: ProviderRerankerFactory };
