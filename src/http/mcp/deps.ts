import type { ChatService } from '../../app/services/chat.ts';
import type { DocumentService } from '../../app/services/documents.ts';
import type { KnowledgeBaseService } from '../../app/services/knowledge-bases.ts';
import type { ModelCatalog } from '../../app/services/models.ts';
import type { Principal } from '../../app/services/principal.ts';
import type { SearchService } from '../../app/services/search.ts';
import type { LoadShedder } from '../load-shedding.ts';
import type { WorkflowRunRouteDeps } from '../routes/workflow-runs.ts';

/** The app services the MCP tools and resources call, the same ones the /v1 routes call. */
export type McpDeps = {
  models: ModelCatalog;
  knowledgeBases: KnowledgeBaseService;
  documents: DocumentService;
  search: SearchService;
  chat: ChatService;
  workflows: Omit<WorkflowRunRouteDeps, 'debugger'>;
  loadShedder: LoadShedder;
  version: string;
  onServerError: (error: unknown, requestId: string) => void;
};

/** One MCP request: who asks (the key the route authenticated) and the request's id for the logs. */
export type McpCall = { principal: Principal; requestId: string };
