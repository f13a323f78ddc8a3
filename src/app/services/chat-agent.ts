import type { AgentConfig } from '../../../schemas/events/agent.ts';
import { badRequest } from '../errors.ts';
import type { AgentService } from './agents.ts';
import { prepareWorkflowChat, type WorkflowChatDeps } from './chat-agent-workflow.ts';
import type { ChatInput, ChatService, PreparedChat } from './chat.ts';
import type { Principal } from './principal.ts';

/** An agent id where a model is named: `model: "agt_…"`. */
export const isAgentId = (model: string) => model.startsWith('agt_');

/** A chat as the agent has it: its instructions first, its model, its knowledge bases and their retrieval options. */
export function agentChatInput(config: AgentConfig, input: ChatInput): ChatInput {
  const instructions = config.instructions ? [{ role: 'system' as const, content: config.instructions }] : [];
  return { ...input, model: config.model, knowledgeBaseIds: config.knowledge_base_ids, retrieval: config.retrieval, messages: [...instructions, ...input.messages] };
}

/**
 * Chat with an agent (`model: "agt_…"`): its instructions are the system prompt, its knowledge
 * bases and retrieval options ground the answer, its model generates. The published version
 * answers unless the request asks for the draft. The answer names the agent as its model, as
 * OpenAI clients expect the model they asked for back. A workflow-backed agent runs its workflow
 * (chat-agent-workflow.ts).
 */
export function chatWithAgents(chat: ChatService, agents: Pick<AgentService, 'forChat'>, runs: WorkflowChatDeps): ChatService {
  return {
    async prepare(principal: Principal, input: ChatInput, signal: AbortSignal): Promise<PreparedChat> {
      if (!isAgentId(input.model)) return chat.prepare(principal, input, signal);
      const { doc, config } = await agents.forChat(principal, input.model, input.agentVersion ?? 'published');
      if (input.knowledgeBaseIds?.length) throw badRequest('unsupported_parameter', 'knowledge_base_ids: an agent answers from its own knowledge bases; leave them out', 'knowledge_base_ids');
      if (config.workflow_id !== null) return prepareWorkflowChat(runs, principal, { workflowId: config.workflow_id, model: doc.id, messages: input.messages, signal });
      const prepared = await chat.prepare(principal, agentChatInput(config, input), signal);
      return { ...prepared, model: doc.id };
    },
  };
}
