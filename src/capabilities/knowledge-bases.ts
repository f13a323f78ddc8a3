import { knowledgeBaseEvents } from '../../schemas/events/knowledge-base.ts';
import { knowledgeBasesProjection } from '../../projections/knowledge-bases/index.ts';
import { knowledgeBaseDecider } from '../domain/knowledge-base/knowledge-base.ts';
import { reindexerConsumer } from '../../consumers/reindexer/index.ts';
import { knowledgeBaseRoutes } from '../http/routes/knowledge-bases.ts';
import { defineCapability } from './capability.ts';

export const knowledgeBases = defineCapability({
  name: 'knowledge-bases',
  summary: 'Knowledge bases: their settings, totals and re-indexing.',
  events: knowledgeBaseEvents,
  deciders: [knowledgeBaseDecider],
  projections: [knowledgeBasesProjection],
  consumers: (deps) => ({
    reindexer: reindexerConsumer({ ctx: deps.services.ctx, embedders: deps.embedders, workspaceModels: deps.services.workspaceModels, vectors: deps.indexes.vectors, passages: deps.indexes.passages, logger: deps.logger }),
  }),
  routes: ({ services }) => knowledgeBaseRoutes(services.knowledgeBases),
});
