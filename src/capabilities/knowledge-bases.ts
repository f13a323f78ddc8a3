/** Knowledge bases: their settings and totals (see documents.ts for why an index). */
export { knowledgeBaseEvents } from '../../schemas/events/knowledge-base.ts';
export { CreateKnowledgeBaseBody, UpdateKnowledgeBaseBody, KnowledgeBase } from '../../schemas/http/knowledge-bases.ts';
export { KnowledgeBaseSettings } from '../../schemas/knowledge-base-settings.ts';
export { knowledgeBaseDecider } from '../domain/knowledge-base/knowledge-base.ts';
export { knowledgeBasesProjection } from '../../projections/knowledge-bases/index.ts';
export { createKnowledgeBaseService } from '../app/services/knowledge-bases.ts';
export { knowledgeBaseRoutes } from '../http/routes/knowledge-bases.ts';
