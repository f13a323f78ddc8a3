import { knowledgeBaseEvents } from '../../schemas/events/knowledge-base.ts';
import { knowledgeBasesProjection } from '../../projections/knowledge-bases/index.ts';
import { knowledgeBaseDecider } from '../domain/knowledge-base/knowledge-base.ts';
import { knowledgeBaseRoutes } from '../http/routes/knowledge-bases.ts';
import { defineCapability } from './capability.ts';

export const knowledgeBases = defineCapability({
  name: 'knowledge-bases',
  summary: 'Knowledge bases: their settings and totals.',
  events: knowledgeBaseEvents,
  deciders: [knowledgeBaseDecider],
  projections: [knowledgeBasesProjection],
  routes: ({ services }) => knowledgeBaseRoutes(services.knowledgeBases),
});
