import { openAiVectorStoreRoutes } from '../http/routes/openai-vector-stores.ts';
import { defineCapability } from './capability.ts';

/** A vector store is a knowledge base and its files are documents: no events or read models of its own. */
export const vectorStores = defineCapability({
  name: 'vector-stores',
  summary: "OpenAI's Vector Stores API over knowledge bases.",
  routes: ({ services }) => openAiVectorStoreRoutes({ stores: services.vectorStores, batches: services.vectorStoreBatches, search: services.vectorStoreSearch }),
});
