import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type FileDoc = {
  id: string;
  object: 'file';
  workspace_id: string;
  filename: string;
  purpose: string;
  bytes: number;
  sha256: string;
  media_type: string;
  uploaded_by: string | null;
  created_at: string;
};

/** The Files API's records: one per stored file, gone once deleted. */
export const filesProjection = defineProjection<FileDoc>()({
  collection: 'files',
  eventTypes: ['FileUploaded', 'FileDeleted'],
  idsOf: (event) => [event.data.file_id],
  evolve(_doc, event) {
    switch (event.type) {
      case 'FileUploaded': {
        const { file_id, ...rest } = event.data;
        return { id: file_id, object: 'file', ...rest };
      }
      case 'FileDeleted':
        return null;
      default:
        return assertNever(event);
    }
  },
});
