import type { AgentDoc } from '../../../projections/agents/index.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import { ApiError } from '../../ports/api-error.ts';

/**
 * Deleting what an agent answers from (a knowledge base, a workflow) is refused with 409 `in_use`
 * naming the agents, as deleting a model provider that knowledge bases use is: a published page
 * would otherwise start failing for its visitors without anyone having asked for it. Both the draft
 * and the published version count.
 */
export async function refuseWhileAgentsUse(readModels: ReadModelStore, workspaceId: string, what: { knowledgeBaseId?: string; workflowId?: string }, noun: string) {
  const agents = await readModels.find<AgentDoc>('agents', { where: { workspace_id: workspaceId } });
  const uses = (doc: AgentDoc) =>
    [doc.draft, doc.published?.config].some(
      (c) => c && ((what.knowledgeBaseId !== undefined && c.knowledge_base_ids.includes(what.knowledgeBaseId)) || (what.workflowId !== undefined && c.workflow_id === what.workflowId)),
    );
  const using = agents.filter(uses).map((a) => `${a.draft.name} (${a.id})`);
  if (using.length === 0) return;
  throw new ApiError(409, 'conflict_error', 'in_use', `Cannot delete ${noun}: agents use it: ${using.join(', ')}. Change or delete them first.`);
}
