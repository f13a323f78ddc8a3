import test from 'ava';
import { run } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp.ts';

const kbqa = async (args: string[], env: Record<string, string> = {}) => {
  const started = run('node', ['bin/kbqa.js', ...args], env);
  return { code: await started.exited, output: started.output() };
};

test('kbqa help keys names create, list and revoke', async (t) => {
  const { code, output } = await kbqa(['help', 'keys']);
  t.is(code, 0);
  t.regex(output, /keys create/);
  t.regex(output, /keys list/);
  t.regex(output, /keys revoke <id>/);
});

test('kbqa keys list shows a workspace\'s keys without secrets; keys revoke <id> revokes one, and list --all still shows it', async (t) => {
  t.timeout(120_000);
  const dir = tempDir();
  t.teardown(() => dir.remove());
  const env = { KBQA_DATA_DIR: dir.path };
  t.is((await kbqa(['workspaces', 'create', 'team'], env)).code, 0);
  const created = await kbqa(['keys', 'create', '--workspace', 'team', '--name', 'ci bot', '--scopes', 'read'], env);
  t.is(created.code, 0, created.output);
  const { id, secret } = JSON.parse(created.output) as { id: string; secret: string };

  const listed = await kbqa(['keys', 'list', '--workspace', 'team'], env);
  t.is(listed.code, 0, listed.output);
  t.regex(listed.output, /^ID\s+NAME\s+PREFIX\s+SCOPES/m);
  t.regex(listed.output, new RegExp(`^${id}\\s+ci bot\\s+${secret.slice(0, 12)}…\\s+read\\s+all\\s+.*active$`, 'm'));
  t.false(listed.output.includes(secret), 'never the secret');
  t.notRegex(listed.output, /"level":\d+/, 'no JSON log line on the terminal');

  const revoked = await kbqa(['keys', 'revoke', id], env);
  t.is(revoked.code, 0, revoked.output);
  t.regex(revoked.output, new RegExp(`revoked ${id} \\(ci bot\\) in workspace 'team'`));
  const after = await kbqa(['keys', 'list', '--workspace', 'team', '--json'], env);
  t.is(after.code, 0, after.output);
  t.false((JSON.parse(after.output) as { id: string }[]).some((k) => k.id === id), 'a revoked key is not listed');
  const all = await kbqa(['keys', 'list', '--workspace', 'team', '--all', '--json'], env);
  const [shown] = (JSON.parse(all.output) as { id: string; revoked_at: string | null; hash?: string }[]).filter((k) => k.id === id);
  t.truthy(shown?.revoked_at);
  t.is(shown?.hash, undefined);

  const again = await kbqa(['keys', 'revoke', id], env);
  t.is(again.code, 1);
  t.regex(again.output, /was revoked at/);
  const unknown = await kbqa(['keys', 'revoke', 'key_nope'], env);
  t.is(unknown.code, 1);
  t.regex(unknown.output, /no key 'key_nope' \(see: kbqa keys list\)/);
});
