/** API keys: who may call, with which scope and knowledge bases (see documents.ts for why an index). */
export { apiKeyEvents } from '../../schemas/events/api-key.ts';
export { CreateApiKeyBody, ApiKey } from '../../schemas/http/api-keys.ts';
export { apiKeyDecider, grants, mayUseKnowledgeBases } from '../domain/api-key/api-key.ts';
export { apiKeysProjection, apiKeyHashesProjection } from '../../projections/api-keys/index.ts';
export { createApiKeyFor, createAuthenticator } from '../app/services/api-keys.ts';
export { requireKnowledgeBasesAccess, requireScope } from '../app/services/principal.ts';
export { apiKeyRoutes } from '../http/routes/api-keys.ts';
