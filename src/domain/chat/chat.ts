import type { z } from 'zod';
import { chatEvents } from '../../../schemas/events/chat.ts';
import { mayUseKnowledgeBases } from '../api-key/api-key.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { missing } from '../shared/errors.ts';

type Events = typeof chatEvents;
export type ChatEvent = { [K in keyof Events]: { type: K; data: z.infer<Events[K]> } }[keyof Events];

type Feedback = Omit<z.infer<Events['ChatFeedbackGiven']>, 'given_at'>;

export type ChatCommand =
  | Command<'RecordChat', Omit<z.infer<Events['ChatCompleted']>, 'completed_at'>>
  /** `allowed`: the knowledge bases the giver's key may use (null: all). */
  | Command<'GiveFeedback', Feedback & { allowed: string[] | null }>;

export type ChatState = { recorded: false } | { recorded: true; workspaceId: string; knowledgeBaseIds: string[] };

/**
 * A chat is recorded once: a retried record of the same chat id appends nothing. Feedback needs a
 * recorded chat of the giver's workspace that searched only knowledge bases the giver may read.
 */
export const chatDecider: Decider<ChatState, ChatCommand, ChatEvent> = {
  initialState: () => ({ recorded: false }),
  streamId: (id) => `chat-${id}`,
  isEvent: eventsOf(chatEvents),
  decide(command, state) {
    switch (command.type) {
      case 'RecordChat':
        if (state.recorded) return [];
        return [{ type: 'ChatCompleted', data: { ...command.data, completed_at: command.metadata.now } }];
      case 'GiveFeedback': {
        const { allowed, ...feedback } = command.data;
        if (!state.recorded || state.workspaceId !== feedback.workspace_id || !mayUseKnowledgeBases(allowed, state.knowledgeBaseIds)) {
          throw missing('chat_completion', feedback.chat_id);
        }
        return [{ type: 'ChatFeedbackGiven', data: { ...feedback, given_at: command.metadata.now } }];
      }
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ChatCompleted': {
        const { workspace_id, knowledge_base_id, knowledge_base_ids, derived_from = [] } = event.data;
        const searched = knowledge_base_ids ?? (knowledge_base_id === null ? [] : [knowledge_base_id]);
        // Its provenance: what it searched and what its input was built from.
        return { recorded: true, workspaceId: workspace_id, knowledgeBaseIds: [...new Set([...searched, ...derived_from])] };
      }
      case 'ChatFeedbackGiven':
        return state;
      default:
        return assertNever(event);
    }
  },
};
