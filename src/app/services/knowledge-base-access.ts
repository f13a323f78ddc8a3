import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import { resourceNotFound } from '../errors.ts';
import { type Principal, requireKnowledgeBaseAccess } from './principal.ts';

/**
 * The knowledge base a request names, if the key may use it. Another workspace's knowledge base
 * answers exactly like a missing one: its existence stays private.
 */
export async function requireKnowledgeBase(readModels: ReadModelStore, principal: Principal, kbId: string): Promise<KnowledgeBaseDoc> {
  requireKnowledgeBaseAccess(principal, kbId);
  const kb = await readModels.get<KnowledgeBaseDoc>('knowledge_bases', kbId);
  if (!kb || kb.workspace_id !== principal.workspaceId) throw resourceNotFound('knowledge_base', kbId);
  return kb;
}
