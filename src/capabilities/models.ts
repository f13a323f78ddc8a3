import { modelRoutes } from '../http/routes/models.ts';
import { defineCapability } from './capability.ts';

export const models = defineCapability({
  name: 'models',
  summary: 'The chat, embedding and rerank models this deployment and the caller’s workspace offer, and the published agents the key may read.',
  routes: ({ services }) => modelRoutes(services.models, services.workspaceModels, services.agents),
});
