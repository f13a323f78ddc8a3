import { z } from 'zod';

/** `as_of` on search, chat and responses (issue 44): checked by src/domain/document/as-of.ts, so a bad one is `invalid_as_of`. */
export const AsOfField = z
  .string()
  .max(64)
  .describe(
    'An RFC 3339 time: answer from the knowledge base as it stood then (the document versions current at that time). 400 invalid_as_of for a malformed time or one in the future; 410 version_purged when a version current then has been purged by keep_versions',
  );
