import type { WorkflowGraph } from '../../../schemas/workflow.ts';
import type { WorkflowEvent } from './workflow.ts';

/** One saved version of a workflow, as its stream holds it. */
export type WorkflowVersion = {
  version: number;
  name: string;
  description: string | null;
  graph: WorkflowGraph;
  saved_at: string;
  /** When this version was last made the published one; null if it never was. */
  published_at: string | null;
};

/**
 * Every version a workflow's stream saved, oldest first. Each create and update carries the whole
 * graph (schemas/events/workflow.ts), so a version is read, never rebuilt; a publish names a version.
 */
export function versionsOf(events: readonly WorkflowEvent[]): WorkflowVersion[] {
  const versions = new Map<number, WorkflowVersion>();
  for (const event of events) {
    switch (event.type) {
      case 'WorkflowCreated':
      case 'WorkflowUpdated': {
        const { version, name, description, graph } = event.data;
        const saved_at = event.type === 'WorkflowCreated' ? event.data.created_at : event.data.updated_at;
        versions.set(version, { version, name, description, graph, saved_at, published_at: null });
        break;
      }
      case 'WorkflowPublished': {
        const published = versions.get(event.data.version);
        if (published) published.published_at = event.data.published_at;
        break;
      }
      case 'WorkflowDeleted':
        break;
    }
  }
  return [...versions.values()];
}

/** Which version a run asks for: the draft (latest save), the published one, or a number. */
export type VersionRequest = 'draft' | 'published' | number;

/**
 * The version number a request resolves to, or a reason it cannot. With no request the published
 * version runs, or the draft while nothing is published yet, so a workflow runs the moment it is
 * saved (as it always did) and, once published, editing it never changes what its users meet.
 */
export function resolveVersion(draft: number, published: number | null, wanted: VersionRequest | undefined): { ok: true; version: number } | { ok: false; message: string } {
  if (wanted === undefined) return { ok: true, version: published ?? draft };
  if (wanted === 'draft') return { ok: true, version: draft };
  if (wanted === 'published') return published === null ? { ok: false, message: 'this workflow has no published version yet; publish it, or run version "draft"' } : { ok: true, version: published };
  if (wanted > draft) return { ok: false, message: `this workflow has versions 1 to ${draft}, not ${wanted}` };
  return { ok: true, version: wanted };
}
