import type { AgentVisitorDoc, VisitorMessage } from '../../schemas/read-models/agents.ts';
import { visitorKey } from '../../src/domain/agent/visitor.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { AgentVisitorDoc };

/** A visitor's conversation keeps its latest messages: the page shows and the chat reads no more. */
export const MAX_VISITOR_MESSAGES = 100;

export const agentVisitorsProjection = defineProjection<AgentVisitorDoc>()({
  collection: 'agent_visitors',
  eventTypes: ['AgentVisitorExchanged', 'AgentVisitorFeedbackGiven'],
  idsOf: (event) => [visitorKey(event.data.agent_id, event.data.visitor_id)],
  evolve(doc, event, id) {
    switch (event.type) {
      case 'AgentVisitorExchanged': {
        const { agent_id, workspace_id, visitor_id, question, answer, at } = event.data;
        const added: VisitorMessage[] = [
          { id: question.id, role: 'user', content: question.content },
          { id: answer.id, role: 'assistant', content: answer.content, citations: answer.citations },
        ];
        const messages = [...(doc?.messages ?? []), ...added].slice(-MAX_VISITOR_MESSAGES);
        return { id, agent_id, workspace_id, visitor_id, messages, updated_at: at };
      }
      case 'AgentVisitorFeedbackGiven': {
        if (!doc) return null;
        const { message_id, rating } = event.data;
        return { ...doc, messages: doc.messages.map((m) => (m.id === message_id ? { ...m, rating } : m)) };
      }
      default:
        return assertNever(event);
    }
  },
});
