import { z } from 'zod';

/**
 * The statuses a document and a workflow run go through. The aggregate, its read model, the API's
 * answers and its list filters all name them from here, so adding one is a change in one place.
 */

/** queued → parsing → indexing → ready | failed: what a client polls after an upload. */
export const DocumentStatus = z.enum(['queued', 'parsing', 'indexing', 'ready', 'failed']);
export type DocumentStatus = z.infer<typeof DocumentStatus>;

/** queued → running → succeeded | failed. */
export const WorkflowRunStatus = z.enum(['queued', 'running', 'succeeded', 'failed']);
export type WorkflowRunStatus = z.infer<typeof WorkflowRunStatus>;

/** A node is recorded once it starts, so it is never queued. */
export const NodeRunStatus = WorkflowRunStatus.exclude(['queued']);
export type NodeRunStatus = z.infer<typeof NodeRunStatus>;
