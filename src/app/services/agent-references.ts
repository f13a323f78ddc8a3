import type { AgentDoc } from '../../../projections/agents/index.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import { ApiError } from '../../ports/api-error.ts';
import { knowledgeBasesOfAgent } from './agent-knowledge-bases.ts';
import { type Principal, visibleTo } from './principal.ts';

/**
 * Deleting what an agent answers from (a knowledge base, a workflow) is refused with 409 `in_use`
 * naming the agents, as deleting a model provider that knowledge bases use is: a published page
 * would otherwise start failing for its visitors without anyone having asked for it. Both the draft
 * and the published version count. Only the agents the key may read are named; the others are
 * counted, so the refusal says no more about them than that they exist.
 */
export async function refuseWhileAgentsUse(readModels: ReadModelStore, principal: Principal, what: { knowledgeBaseId?: string; workflowId?: string }, noun: string) {
  const agents = await readModels.find<AgentDoc>('agents', { where: { workspace_id: principal.workspaceId } });
  const uses = (doc: AgentDoc) =>
    [doc.draft, doc.published?.config].some(
      (c) => c && ((what.knowledgeBaseId !== undefined && c.knowledge_base_ids.includes(what.knowledgeBaseId)) || (what.workflowId !== undefined && c.workflow_id === what.workflowId)),
    );
  const using = agents.filter(uses);
  if (using.length === 0) return;
  const readable = visibleTo(principal, knowledgeBasesOfAgent) ?? (() => true);
  const named = using.filter(readable).map((a) => `${a.draft.name} (${a.id})`);
  const hidden = using.length - named.length;
  const others = hidden === 0 ? '' : named.length === 0 ? `${hidden} agent${hidden === 1 ? '' : 's'} this key may not read` : ` and ${hidden} other${hidden === 1 ? '' : 's'} this key may not read`;
  throw new ApiError(409, 'conflict_error', 'in_use', `Cannot delete ${noun}: agents use it: ${named.join(', ')}${others}. Change or delete them first.`);
}
