/**
 * `as_of` (issue 44 item 4): which version of a document answered at a moment. Pure: the
 * validity interval of each version is in the documents read model (`current_from`,
 * `superseded_at`, both from the log), so the version current at any time is read, not replayed.
 */

/** A clock a little ahead of ours is the caller's, not a wish to read the future: this much is allowed. */
export const AS_OF_SKEW_MS = 60_000;

/** RFC 3339: a date, `T`, a time, an offset (`Z` or ±hh:mm). Looser forms Date.parse accepts are refused. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

export type AsOf = { ok: true; at: string } | { ok: false; message: string };

/** The moment asked for, as an ISO string (UTC, milliseconds) the read model's times compare with. */
export function parseAsOf(raw: string, now: Date): AsOf {
  if (!RFC3339.test(raw)) return { ok: false, message: `as_of must be an RFC 3339 time such as 2026-01-31T09:00:00Z, not "${raw.slice(0, 40)}".` };
  const ms = Date.parse(raw.replace(' ', 'T'));
  if (Number.isNaN(ms)) return { ok: false, message: `as_of "${raw.slice(0, 40)}" is not a time that exists.` };
  if (ms > now.getTime() + AS_OF_SKEW_MS) return { ok: false, message: 'as_of is in the future; leave it out to search the knowledge base as it is now.' };
  return { ok: true, at: new Date(ms).toISOString() };
}

/** What of a version says when it answered. */
export type VersionInterval = {
  version: number;
  current_from: string | null;
  superseded_at: string | null;
  status: string;
  purged_at?: string | null;
};

const answeredAt = (v: VersionInterval, atMs: number) =>
  v.current_from !== null && Date.parse(v.current_from) <= atMs && (v.superseded_at === null || atMs < Date.parse(v.superseded_at));

/** The version that answered at `at` (0: none had, the document was not ready yet). */
export function versionAt(versions: readonly VersionInterval[], at: string): number {
  const atMs = Date.parse(at);
  return versions.find((v) => answeredAt(v, atMs))?.version ?? 0;
}

/** The version that answered at `at` when it has since been purged: as_of cannot answer as it would have. */
export function purgedVersionAt(versions: readonly VersionInterval[], at: string): VersionInterval | null {
  const atMs = Date.parse(at);
  return versions.find((v) => v.status === 'purged' && answeredAt(v, atMs)) ?? null;
}
