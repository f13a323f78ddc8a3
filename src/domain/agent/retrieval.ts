import type { KnowledgeBaseSettings } from '../../../schemas/knowledge-base-settings.ts';
import type { AgentConfig } from '../../../schemas/events/agent.ts';

/** The agent's retrieval options over a knowledge base's own settings. */
export function withAgentRetrieval(settings: KnowledgeBaseSettings, retrieval: AgentConfig['retrieval'] | undefined): KnowledgeBaseSettings {
  if (!retrieval) return settings;
  return {
    ...settings,
    ...(retrieval.top_k !== undefined && { top_k: retrieval.top_k }),
    ...(retrieval.score_threshold !== undefined && { score_threshold: retrieval.score_threshold }),
    ...(retrieval.rerank !== undefined && { rerank: { ...settings.rerank, enabled: retrieval.rerank } }),
  };
}
