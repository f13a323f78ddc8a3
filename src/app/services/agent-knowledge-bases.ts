import type { AgentDoc } from '../../../projections/agents/index.ts';
import type { AgentConfig } from '../../../schemas/events/agent.ts';

/**
 * The knowledge bases one version of an agent answers from. A workflow-backed one's are its
 * workflow's, which can change under it, so it counts as every knowledge base (null): only keys
 * that reach the whole workspace see it.
 */
export const knowledgeBasesOfConfig = (config: AgentConfig): string[] | null => (config.workflow_id !== null ? null : config.knowledge_base_ids);

/** An agent's provenance: the knowledge bases its draft and published version answer from (null: every one). */
export function knowledgeBasesOfAgent(doc: Pick<AgentDoc, 'draft' | 'published'>): string[] | null {
  const configs = [doc.draft, doc.published?.config].filter((c): c is AgentConfig => c !== undefined);
  const named = configs.map(knowledgeBasesOfConfig);
  if (named.includes(null)) return null;
  return [...new Set(named.flatMap((ids) => ids ?? []))];
}
