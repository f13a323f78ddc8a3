import { mcpRoutes } from '../http/routes/mcp.ts';
import { defineCapability } from './capability.ts';

export const mcp = defineCapability({
  name: 'mcp',
  summary: 'The Model Context Protocol endpoint: search, ask and documents as tools and resources.',
  routes: ({ services, settings }) =>
    mcpRoutes({
      models: services.models,
      knowledgeBases: services.knowledgeBases,
      documents: services.documents,
      search: services.search,
      chat: services.chat,
      workflows: { workflows: services.workflows, feed: settings.feed, blockingWaitMs: settings.workflowBlockingWaitMs, onError: settings.onServerError },
      loadShedder: settings.loadShedder,
      version: settings.version,
      onServerError: settings.onServerError,
    }),
});
