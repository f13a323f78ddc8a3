import type { z } from 'zod';
import type { WorkspaceCreated } from '../../../schemas/events/workspace.ts';
import { assertNever, type Command, type Decider } from '../shared/decider.ts';
import { conflict } from '../shared/errors.ts';

export type WorkspaceEvent = { type: 'WorkspaceCreated'; data: z.infer<typeof WorkspaceCreated> };

export type WorkspaceCommand = Command<'CreateWorkspace', { workspace_id: string; name: string }>;

export type WorkspaceState = { status: 'absent' } | { status: 'active'; workspaceId: string; name: string };

export const workspaceDecider: Decider<WorkspaceState, WorkspaceCommand, WorkspaceEvent> = {
  initialState: () => ({ status: 'absent' }),
  streamId: (id) => `workspace-${id}`,
  decide(command, state) {
    switch (command.type) {
      case 'CreateWorkspace':
        if (state.status !== 'absent') throw conflict('workspace_exists', `workspace ${command.data.workspace_id} already exists`);
        return [{ type: 'WorkspaceCreated', data: { ...command.data, created_at: command.metadata.now } }];
      default:
        return assertNever(command.type);
    }
  },
  evolve(_state, event) {
    switch (event.type) {
      case 'WorkspaceCreated':
        return { status: 'active', workspaceId: event.data.workspace_id, name: event.data.name };
      default:
        return assertNever(event.type);
    }
  },
};
