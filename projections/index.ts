import { apiKeyHashesProjection, apiKeysProjection } from './api-keys/index.ts';
import { conversationItemsProjection, conversationsProjection } from './conversations/index.ts';
import { documentsProjection } from './documents/index.ts';
import { filesProjection } from './files/index.ts';
import { knowledgeBasesProjection } from './knowledge-bases/index.ts';
import type { Projection } from './projection.ts';
import { responsesProjection } from './responses/index.ts';
import { workflowRunsProjection } from './workflow-runs/index.ts';
import { workflowsProjection } from './workflows/index.ts';
import { workspacesProjection } from './workspaces/index.ts';

export const allProjections: readonly Projection[] = [
  workspacesProjection,
  apiKeysProjection,
  apiKeyHashesProjection,
  knowledgeBasesProjection,
  documentsProjection,
  workflowsProjection,
  workflowRunsProjection,
  filesProjection,
  responsesProjection,
  conversationsProjection,
  conversationItemsProjection,
];
