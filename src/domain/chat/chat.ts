import type { z } from 'zod';
import { chatEvents } from '../../../schemas/events/chat.ts';
import type { ChatCompleted } from '../../../schemas/events/chat.ts';
import { eventsOf, type Command, type Decider } from '../shared/decider.ts';

export type ChatEvent = { type: 'ChatCompleted'; data: z.infer<typeof ChatCompleted> };

export type ChatCommand = Command<'RecordChat', Omit<z.infer<typeof ChatCompleted>, 'completed_at'>>;

export type ChatState = { recorded: boolean };

/** A chat is recorded once: a retried record of the same chat id appends nothing. */
export const chatDecider: Decider<ChatState, ChatCommand, ChatEvent> = {
  initialState: () => ({ recorded: false }),
  streamId: (id) => `chat-${id}`,
  isEvent: eventsOf(chatEvents),
  decide(command, state) {
    if (state.recorded) return [];
    return [{ type: 'ChatCompleted', data: { ...command.data, completed_at: command.metadata.now } }];
  },
  evolve: () => ({ recorded: true }),
};
