import type { ExecutionContext, TestFn } from 'ava';
import type { SecretStore } from '../../../src/ports/secret-store.ts';

export type SecretStoreFixture = {
  secrets: SecretStore;
  /** Every byte the store keeps at rest (its files), to look for plain values in. */
  bytesAtRest(): Buffer;
  /** The same storage opened again (a restart), with the same master key. */
  reopen(): Promise<SecretStore>;
  cleanup(): Promise<void>;
};

/** Values kept by reference, encrypted at rest, per workspace, and gone for good once deleted. */
export function testSecretStore(test: TestFn, name: string, factory: () => Promise<SecretStoreFixture>) {
  const withStore = (title: string, body: (t: ExecutionContext, fixture: SecretStoreFixture) => Promise<void>) =>
    test(`${name} › ${title}`, async (t) => {
      const fixture = await factory();
      try {
        await body(t, fixture);
      } finally {
        await fixture.cleanup();
      }
    });

  withStore('a value comes back by its workspace and ref, and survives a restart', async (t, { secrets, reopen }) => {
    await secrets.put('ws_a', 'sec_1', 'sk-live-value-0001');
    t.is(await secrets.get('ws_a', 'sec_1'), 'sk-live-value-0001');
    await secrets.close();
    const again = await reopen();
    t.is(await again.get('ws_a', 'sec_1'), 'sk-live-value-0001');
    await again.close();
  });

  withStore('another workspace does not read a ref it did not store', async (t, { secrets }) => {
    await secrets.put('ws_a', 'sec_1', 'only for a');
    t.is(await secrets.get('ws_b', 'sec_1'), null);
    t.is(await secrets.get('ws_a', 'sec_unknown'), null);
  });

  withStore('put on a ref replaces its value', async (t, { secrets }) => {
    await secrets.put('ws_a', 'sec_1', 'first');
    await secrets.put('ws_a', 'sec_1', 'second');
    t.is(await secrets.get('ws_a', 'sec_1'), 'second');
  });

  withStore('a deleted value is gone, and deleting twice is no error', async (t, { secrets, reopen }) => {
    await secrets.put('ws_a', 'sec_1', 'shred me');
    await secrets.put('ws_a', 'sec_2', 'keep me');
    await secrets.delete('ws_a', 'sec_1');
    await secrets.delete('ws_a', 'sec_1');
    t.is(await secrets.get('ws_a', 'sec_1'), null);
    t.is(await secrets.get('ws_a', 'sec_2'), 'keep me');
    await secrets.close();
    const again = await reopen();
    t.is(await again.get('ws_a', 'sec_1'), null);
    await again.close();
  });

  withStore('no plain value is at rest', async (t, { secrets, bytesAtRest }) => {
    const plain = ['sk-plain-needle-7f3a9c', 'ünïcode-needle-∆'];
    await secrets.put('ws_a', 'sec_1', plain[0]!);
    await secrets.put('ws_b', 'sec_2', plain[1]!);
    const bytes = bytesAtRest();
    t.true(bytes.length > 0);
    for (const value of plain) t.is(bytes.indexOf(Buffer.from(value, 'utf8')), -1, `${value} is stored in plain`);
  });

  withStore('values of unicode and of any length come back whole', async (t, { secrets }) => {
    const long = 'x'.repeat(100_000);
    await secrets.put('ws_a', 'long', long);
    await secrets.put('ws_a', 'empty', '');
    await secrets.put('ws_a', 'emoji', 'κλειδί 🔑');
    t.is(await secrets.get('ws_a', 'long'), long);
    t.is(await secrets.get('ws_a', 'empty'), '');
    t.is(await secrets.get('ws_a', 'emoji'), 'κλειδί 🔑');
  });
}
