import { modelRoutes } from '../http/routes/models.ts';
import { defineCapability } from './capability.ts';

export const models = defineCapability({
  name: 'models',
  summary: 'The chat, embedding and rerank models this deployment and the caller’s workspace offer.',
  routes: ({ services }) => modelRoutes(services.models, services.workspaceModels),
});
