import test from 'ava';
import { AS_OF_SKEW_MS, parseAsOf, purgedVersionAt, versionAt, type VersionInterval } from '../../src/domain/document/as-of.ts';

const now = new Date('2026-03-01T12:00:00.000Z');

test('as_of: an RFC 3339 time with an offset reads as the UTC moment it names', (t) => {
  t.deepEqual(parseAsOf('2026-02-01T10:00:00+02:00', now), { ok: true, at: '2026-02-01T08:00:00.000Z' });
  t.deepEqual(parseAsOf('2026-02-01T08:00:00.5Z', now), { ok: true, at: '2026-02-01T08:00:00.500Z' });
});

test('as_of: a date alone, a time without offset, or a word is refused', (t) => {
  for (const raw of ['2026-02-01', '2026-02-01T08:00:00', 'yesterday', '']) t.false(parseAsOf(raw, now).ok, raw);
  t.false(parseAsOf('2026-02-31T08:00:00Z', now).ok, 'a day that does not exist');
});

test('as_of: the future is refused beyond a small skew, within it accepted', (t) => {
  t.true(parseAsOf(new Date(now.getTime() + AS_OF_SKEW_MS - 1000).toISOString(), now).ok);
  const ahead = parseAsOf(new Date(now.getTime() + AS_OF_SKEW_MS + 1000).toISOString(), now);
  t.false(ahead.ok);
  if (!ahead.ok) t.regex(ahead.message, /future/);
});

const versions: VersionInterval[] = [
  { version: 1, status: 'superseded', current_from: '2026-01-01T00:00:00.000Z', superseded_at: '2026-02-01T00:00:00.000Z' },
  { version: 2, status: 'failed', current_from: null, superseded_at: null },
  { version: 3, status: 'ready', current_from: '2026-02-01T00:00:00.000Z', superseded_at: null },
];

test('the version current at a moment: from its current_from, until (not at) its superseded_at', (t) => {
  t.is(versionAt(versions, '2025-12-31T23:59:59.999Z'), 0, 'before any version was ready');
  t.is(versionAt(versions, '2026-01-01T00:00:00.000Z'), 1);
  t.is(versionAt(versions, '2026-01-31T23:59:59.999Z'), 1);
  t.is(versionAt(versions, '2026-02-01T00:00:00.000Z'), 3, 'the failed version never answered');
  t.is(versionAt(versions, '2027-01-01T00:00:00.000Z'), 3);
});

test('a purged version is named only for the moments it answered', (t) => {
  const purged = versions.map((v) => (v.version === 1 ? { ...v, status: 'purged', purged_at: '2026-02-10T00:00:00.000Z' } : v));
  t.is(purgedVersionAt(purged, '2026-01-15T00:00:00.000Z')?.version, 1);
  t.is(purgedVersionAt(purged, '2026-02-15T00:00:00.000Z'), null);
  t.is(versionAt(purged, '2026-01-15T00:00:00.000Z'), 1, 'it still was the version then');
});
