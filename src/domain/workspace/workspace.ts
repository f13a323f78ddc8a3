import type { z } from 'zod';
import { workspaceEvents } from '../../../schemas/events/workspace.ts';
import type { WorkspaceCreated } from '../../../schemas/events/workspace.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, invalid } from '../shared/errors.ts';

export type WorkspaceEvent = { type: 'WorkspaceCreated'; data: z.infer<typeof WorkspaceCreated> };

export type WorkspaceCommand = Command<'CreateWorkspace', { workspace_id: string; name: string }>;

export type WorkspaceState = { status: 'absent' } | { status: 'active'; workspaceId: string; name: string };

/** Workspace ids travel in stream names, topics' keys and key records: one plain pattern everywhere. */
export const WORKSPACE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const workspaceIdProblem = (id: string) =>
  WORKSPACE_ID_PATTERN.test(id) ? null : `workspace id '${id}' must be 1–64 letters, digits, '-' or '_'`;

export const workspaceDecider: Decider<WorkspaceState, WorkspaceCommand, WorkspaceEvent> = {
  initialState: () => ({ status: 'absent' }),
  streamId: (id) => `workspace-${id}`,
  isEvent: eventsOf(workspaceEvents),
  decide(command, state) {
    switch (command.type) {
      case 'CreateWorkspace':
        if (state.status !== 'absent') throw conflict('workspace_exists', `workspace ${command.data.workspace_id} already exists`);
        {
          const problem = workspaceIdProblem(command.data.workspace_id);
          if (problem) throw invalid('invalid_workspace_id', problem, 'workspace_id');
        }
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
