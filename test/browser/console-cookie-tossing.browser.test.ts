import test from 'ava';
import { createWorkspaceWithAdminKey } from '../../src/app/services/workspaces.ts';
import { ADMIN_KEY } from '../helpers/admin-key.ts';
import { closeConsoleBrowser, consoleBrowserForTests, openConsole } from '../helpers/console-browser.ts';
import { startServer } from '../helpers/server.ts';

const chromium = consoleBrowserForTests();
const serial = chromium ? test.serial : test.serial.skip;
test.after.always(closeConsoleBrowser);

/**
 * Cookie tossing (issue 42, item 9): a page of a sibling subdomain sets a session cookie of its own
 * for the parent domain and the API's path. Chromium resolves every *.localhost name to loopback and
 * counts it a secure context, so `app.kbqa.localhost` and `evil.kbqa.localhost` are two sites of one
 * domain on this machine: the console on one, the attacker's page on the other.
 */
serial('a session cookie tossed by a sibling subdomain for /v1 is refused beside the console’s own: nothing lands in the sibling’s workspace', async (t) => {
  const server = await startServer();
  t.teardown(() => server.close());
  const { port } = new URL(server.url);
  const app = `http://app.kbqa.localhost:${port}`;
  const sibling = `http://evil.kbqa.localhost:${port}`;

  // The victim's workspace has a knowledge base; the attacker's has none, so a list read there shows the empty screen.
  t.is((await server.call('POST', '/v1/knowledge-bases', { key: ADMIN_KEY, json: { name: 'Product manuals' } })).status, 201);
  // The attacker's own session, which it got by signing in with the key of its own workspace.
  const attackerKey = (await createWorkspaceWithAdminKey(server.runtime.ctx, 'ws_attacker'))!;
  const signedIn = await fetch(`${server.url}/console/session`, { method: 'POST', headers: { 'x-kbqa-console': '1', 'content-type': 'application/json' }, body: JSON.stringify({ api_key: attackerKey }) });
  const attackerSession = /^[^=]+=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')![1]!;

  const c = await openConsole(t, chromium!, { server });
  const { page } = c;
  await page.goto(`${app}/`);
  await page.getByLabel('API key').fill(ADMIN_KEY);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation').getByRole('link', { name: 'Knowledge bases' }).waitFor();
  const own = (await page.context().cookies(app)).filter((cookie) => cookie.name.endsWith('kbqa_console'));
  t.like(own, [{ name: '__Host-kbqa_console', path: '/', secure: true, httpOnly: true, sameSite: 'Strict' }], 'a __Host- cookie: no sibling can set one of that name');

  // The sibling's page: for the parent domain and /v1 only, so the console's session check
  // (GET /console/session) still sees the victim's own cookie while every API call also carries this one.
  const evil = await page.context().newPage();
  await evil.goto(`${sibling}/healthz`);
  await evil.evaluate((value) => {
    document.cookie = `kbqa_console=${value}; domain=kbqa.localhost; path=/v1`;
    document.cookie = `__Host-kbqa_console=${value}; domain=kbqa.localhost; path=/v1; secure`;
  }, attackerSession);
  const sent = (await page.context().cookies(`${app}/v1/knowledge-bases`)).filter((cookie) => cookie.name.endsWith('kbqa_console'));
  t.deepEqual(sent.map((cookie) => cookie.name).sort(), ['__Host-kbqa_console', 'kbqa_console'], 'the browser keeps the tossed cookie, and drops the __Host- one a sibling tried');

  await page.goto(`${app}/knowledge-bases`);
  const alert = page.getByRole('alert');
  await alert.or(page.getByText('No knowledge bases yet')).first().waitFor();
  t.true(await alert.isVisible(), 'the list is refused, not read from the sibling’s workspace');
  t.regex(await alert.innerText(), /more than one console session cookie/i);

  // What the console would send to create a knowledge base: refused, and the attacker's workspace stays empty.
  const created = await page.evaluate(async () => {
    const res = await fetch('/v1/knowledge-bases', { method: 'POST', headers: { 'x-kbqa-console': '1', 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Board minutes' }) });
    return { status: res.status, body: (await res.json()) as { error?: { code?: string } } };
  });
  t.is(created.status, 400);
  t.is(created.body.error?.code, 'duplicate_console_session');
  t.deepEqual((await server.call('GET', '/v1/knowledge-bases', { key: attackerKey })).body.data, []);
  t.deepEqual(c.pageErrors, []);
});
