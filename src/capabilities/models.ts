import { modelRoutes } from '../http/routes/models.ts';
import { defineCapability } from './capability.ts';

export const models = defineCapability({
  name: 'models',
  summary: 'The chat, embedding and rerank models this deployment offers.',
  routes: ({ services }) => modelRoutes(services.models),
});
