import test from 'ava';
import { type DiffChunk, diffVersions } from '../../src/domain/document/version-diff.ts';

const chunks = (...texts: string[]): DiffChunk[] => texts.map((text, i) => ({ chunk_id: `c${i}-${text.length}`, page: i + 1, text }));

test('identical versions: every chunk unchanged, nothing added, removed or changed', (t) => {
  const v = chunks('Refunds take 14 days.', 'Shipping is free over 50 EUR.');
  t.deepEqual(diffVersions(v, v), { added: [], removed: [], changed: [], unchanged: 2 });
});

test('whitespace and Unicode forms are no change', (t) => {
  const diff = diffVersions(chunks('Refunds  take\n14 days.'), chunks('Refunds take 14 days.'));
  t.is(diff.unchanged, 1);
  t.is(diff.changed.length, 0);
});

test('an edited passage is changed, with its text before and after; the passages around it are unchanged', (t) => {
  const older = chunks('Intro to the policy.', 'Refunds are paid within 14 days of the return.', 'Contact support by email.');
  const newer = chunks('Intro to the policy.', 'Refunds are paid within 30 days of the return.', 'Contact support by email.');
  const diff = diffVersions(older, newer);
  t.is(diff.unchanged, 2);
  t.deepEqual(diff.added, []);
  t.deepEqual(diff.removed, []);
  t.is(diff.changed.length, 1);
  t.is(diff.changed[0]!.before.text, 'Refunds are paid within 14 days of the return.');
  t.is(diff.changed[0]!.after.text, 'Refunds are paid within 30 days of the return.');
  t.is(diff.changed[0]!.after.page, 2);
});

test('a new passage is added and a dropped one removed, not paired with unrelated text', (t) => {
  const older = chunks('Intro to the policy.', 'Gift cards cannot be refunded under any circumstances.', 'Contact support by email.');
  const newer = chunks('Intro to the policy.', 'Contact support by email.', 'Our warehouse moved to Lyon in March.');
  const diff = diffVersions(older, newer);
  t.deepEqual(diff.removed.map((c) => c.text), ['Gift cards cannot be refunded under any circumstances.']);
  t.deepEqual(diff.added.map((c) => c.text), ['Our warehouse moved to Lyon in March.']);
  t.deepEqual(diff.changed, []);
  t.is(diff.unchanged, 2);
});

test('in one stretch, each removed chunk pairs with the most similar added one, in order, the rest added', (t) => {
  const older = chunks('Alpha beta gamma delta epsilon.', 'Zeta eta theta iota kappa.');
  const newer = chunks('A brand new opening paragraph here.', 'Alpha beta gamma delta omega.', 'Zeta eta theta iota lambda.');
  const diff = diffVersions(older, newer);
  t.deepEqual(
    diff.changed.map((c) => [c.before.text, c.after.text]),
    [
      ['Alpha beta gamma delta epsilon.', 'Alpha beta gamma delta omega.'],
      ['Zeta eta theta iota kappa.', 'Zeta eta theta iota lambda.'],
    ],
  );
  t.deepEqual(diff.added.map((c) => c.text), ['A brand new opening paragraph here.']);
});

test('Chinese text is compared character by character, so an edited sentence pairs', (t) => {
  const diff = diffVersions(chunks('退款将在十四天内支付。'), chunks('退款将在三十天内支付。'));
  t.is(diff.changed.length, 1);
});

test('an empty older version: everything added', (t) => {
  const diff = diffVersions([], chunks('One.', 'Two.'));
  t.is(diff.added.length, 2);
  t.is(diff.unchanged, 0);
});
