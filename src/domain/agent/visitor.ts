import type { z } from 'zod';
import { agentVisitorEvents } from '../../../schemas/events/agent.ts';
import type { AgentVisitorExchanged } from '../../../schemas/events/agent.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { notFound } from '../shared/errors.ts';

type Events = typeof agentVisitorEvents;
export type AgentVisitorEvent = { [K in keyof Events]: { type: K; data: z.infer<Events[K]> } }[keyof Events];
type Exchange = Omit<z.infer<typeof AgentVisitorExchanged>, 'at'>;

export type AgentVisitorCommand =
  | Command<'RecordExchange', Exchange>
  | Command<'GiveFeedback', { agent_id: string; workspace_id: string; visitor_id: string; message_id: string; rating: 'up' | 'down'; comment: string | null }>;

/**
 * The answers' ids, so feedback names one of this visitor's own answers, and the feedback each
 * holds now (`rating|comment`), so the same feedback again records nothing.
 */
export type AgentVisitorState = { answers: readonly string[]; feedback: Readonly<Record<string, string>> };

const feedbackOf = (data: { rating: string; comment: string | null }) => `${data.rating}|${data.comment ?? ''}`;

/** One stream per agent and visitor: the landing page's conversation, as the visitor had it. */
export const visitorKey = (agentId: string, visitorId: string) => `${agentId}-${visitorId}`;

export const agentVisitorDecider: Decider<AgentVisitorState, AgentVisitorCommand, AgentVisitorEvent> = {
  initialState: () => ({ answers: [], feedback: {} }),
  streamId: (key) => `agent_visitor-${key}`,
  isEvent: eventsOf(agentVisitorEvents),
  decide(command, state) {
    switch (command.type) {
      case 'RecordExchange':
        return [{ type: 'AgentVisitorExchanged', data: { ...command.data, at: command.metadata.now } }];
      case 'GiveFeedback':
        if (!state.answers.includes(command.data.message_id)) throw notFound('message_not_found', `No message found with id '${command.data.message_id}'.`);
        if (state.feedback[command.data.message_id] === feedbackOf(command.data)) return [];
        return [{ type: 'AgentVisitorFeedbackGiven', data: { ...command.data, at: command.metadata.now } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'AgentVisitorExchanged':
        return { ...state, answers: [...state.answers, event.data.answer.id] };
      case 'AgentVisitorFeedbackGiven':
        return { ...state, feedback: { ...state.feedback, [event.data.message_id]: feedbackOf(event.data) } };
      default:
        return assertNever(event);
    }
  },
};
