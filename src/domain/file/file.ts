import type { z } from 'zod';
import { fileEvents } from '../../../schemas/events/file.ts';
import type { FileDeleted, FileUploaded } from '../../../schemas/events/file.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, missing } from '../shared/errors.ts';

export type FileEvent = { type: 'FileUploaded'; data: z.infer<typeof FileUploaded> } | { type: 'FileDeleted'; data: z.infer<typeof FileDeleted> };

export type FileCommand =
  | Command<'UploadFile', Omit<z.infer<typeof FileUploaded>, 'created_at'>>
  | Command<'DeleteFile', { file_id: string; workspace_id: string }>;

export type FileState = { status: 'absent' } | { status: 'stored' | 'deleted'; workspaceId: string };

/** A file of the Files API: stored once, deleted once; another workspace's file answers like a missing one. */
export const fileDecider: Decider<FileState, FileCommand, FileEvent> = {
  initialState: () => ({ status: 'absent' }),
  streamId: (id) => `file-${id}`,
  isEvent: eventsOf(fileEvents),
  decide(command, state) {
    switch (command.type) {
      case 'UploadFile':
        if (state.status !== 'absent') throw conflict('file_exists', `file ${command.data.file_id} already exists`);
        return [{ type: 'FileUploaded', data: { ...command.data, created_at: command.metadata.now } }];
      case 'DeleteFile':
        if (state.status !== 'stored' || state.workspaceId !== command.data.workspace_id) throw missing('file', command.data.file_id);
        return [{ type: 'FileDeleted', data: { file_id: command.data.file_id, deleted_at: command.metadata.now } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'FileUploaded':
        return { status: 'stored', workspaceId: event.data.workspace_id };
      case 'FileDeleted':
        return state.status === 'absent' ? state : { ...state, status: 'deleted' };
      default:
        return assertNever(event);
    }
  },
};
