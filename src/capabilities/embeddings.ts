import { embeddingsRoutes } from '../http/routes/embeddings.ts';
import { defineCapability } from './capability.ts';

export const embeddings = defineCapability({
  name: 'embeddings',
  summary: "OpenAI's /v1/embeddings over the deployment's embedding models.",
  routes: ({ services }) => embeddingsRoutes(services.embeddings),
});
