import type { ChatModel, ModelInfo } from './models.ts';

/** A workspace provider's model, as the app asks for one: where it is, the key, the provider's id of it, and how /v1 names it. */
export type ProviderModelSpec = { baseUrl: string; apiKey: string; model: string; info: ModelInfo };

/** Builds the client of a workspace provider's chat model (the composition root picks the adapter). */
export type ProviderChatModelFactory = (spec: ProviderModelSpec) => Promise<ChatModel>;
