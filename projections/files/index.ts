import type { FileDoc } from '../../schemas/read-models/files.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { FileDoc };

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
