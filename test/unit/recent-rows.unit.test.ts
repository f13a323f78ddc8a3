import test from 'ava';
import { type EventRow, RecentRows } from '../../src/adapters/sqlite/recent-rows.ts';

const row = (position: number, type = 'T', data = '{}'): EventRow => ({ position, id: `e${position}`, stream_id: 's', revision: position, type, data, metadata: '{}', recorded_at: '2026-01-01T00:00:00.000Z' });
const positions = (rows: EventRow[] | undefined) => rows?.map((r) => r.position);

test('a page inside the window is the rows the table would give, types and limit applied', (t) => {
  const recent = new RecentRows({ maxRows: 100, maxChars: 1 << 20 });
  recent.push([1, 2, 3, 4, 5, 6].map((p) => row(p, p % 2 ? 'Odd' : 'Even')));
  t.deepEqual(positions(recent.page(0, 6, 10)), [1, 2, 3, 4, 5, 6]);
  t.deepEqual(positions(recent.page(2, 5, 10)), [3, 4, 5]);
  t.deepEqual(positions(recent.page(1, 6, 2)), [2, 3]);
  t.deepEqual(positions(recent.page(0, 6, 10, new Set(['Even']))), [2, 4, 6]);
  t.deepEqual(positions(recent.page(6, 6, 10)), []);
});

test('a range the window does not hold whole is not answered', (t) => {
  const recent = new RecentRows({ maxRows: 100, maxChars: 1 << 20 });
  t.is(recent.page(0, 3, 10), undefined);
  t.deepEqual(recent.page(3, 3, 10), []);
  recent.push([row(5), row(6)]);
  t.is(recent.page(3, 6, 10), undefined, 'position 4 is not held');
  t.deepEqual(positions(recent.page(4, 6, 10)), [5, 6]);
  t.is(recent.page(4, 7, 10), undefined, 'position 7 came from elsewhere');
});

test('a gap empties the window: rows another process appended are not held', (t) => {
  const recent = new RecentRows({ maxRows: 100, maxChars: 1 << 20 });
  recent.push([row(1), row(2)]);
  recent.push([row(4)]);
  t.is(recent.page(0, 4, 10), undefined);
  t.is(recent.page(2, 4, 10), undefined);
  t.deepEqual(positions(recent.page(3, 4, 10)), [4]);
});

test('the oldest rows go past either limit, rows or characters', (t) => {
  const byRows = new RecentRows({ maxRows: 3, maxChars: 1 << 20 });
  byRows.push([1, 2, 3, 4, 5].map((p) => row(p)));
  t.is(byRows.page(1, 5, 10), undefined);
  t.deepEqual(positions(byRows.page(2, 5, 10)), [3, 4, 5]);
  const byChars = new RecentRows({ maxRows: 100, maxChars: 25 });
  byChars.push([row(1, 'T', 'x'.repeat(10)), row(2, 'T', 'x'.repeat(10)), row(3, 'T', 'x'.repeat(10))]);
  t.deepEqual(positions(byChars.page(1, 3, 10)), [2, 3]);
  t.is(byChars.page(0, 3, 10), undefined);
  // A single row larger than the limit is still held: the newest row is never dropped.
  byChars.push([row(4, 'T', 'x'.repeat(100))]);
  t.deepEqual(positions(byChars.page(3, 4, 10)), [4]);
});

test('many pushes keep the window exact while old slots are reclaimed', (t) => {
  const recent = new RecentRows({ maxRows: 50, maxChars: 1 << 20 });
  for (let p = 1; p <= 5000; p++) recent.push([row(p)]);
  t.deepEqual(positions(recent.page(4990, 5000, 100)), [4991, 4992, 4993, 4994, 4995, 4996, 4997, 4998, 4999, 5000]);
  t.deepEqual(positions(recent.page(4950, 4952, 100)), [4951, 4952]);
  t.is(recent.page(4949, 5000, 100), undefined);
});
