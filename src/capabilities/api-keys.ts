import { apiKeyEvents } from '../../schemas/events/api-key.ts';
import { apiKeyHashesProjection, apiKeysProjection } from '../../projections/api-keys/index.ts';
import { apiKeyDecider } from '../domain/api-key/api-key.ts';
import { apiKeyRoutes } from '../http/routes/api-keys.ts';
import { defineCapability } from './capability.ts';

export const apiKeys = defineCapability({
  name: 'api-keys',
  summary: 'Who may call, with which scope and knowledge bases.',
  events: apiKeyEvents,
  deciders: [apiKeyDecider],
  projections: [apiKeysProjection, apiKeyHashesProjection],
  routes: ({ services }) => apiKeyRoutes(services.ctx),
});
