import test, { type ExecutionContext } from 'ava';
import { CONSOLE_SESSION_TTL_MS } from '../../src/app/services/console-sessions.ts';
import { apiKeyCreated, knowledgeBaseCreated } from '../helpers/given-events.ts';
import { httpSpec } from '../helpers/http-spec.ts';
import type { SpecApp } from '../helpers/spec-app.ts';

/** The console's sign-in (docs/console-session.md): requests and cookies only, so each test has a spec app of its own. */
const NOW = '2026-11-28T09:00:00.000Z';
const KEY = 'kbqa-console-test-key-0123456789abcdefghij';
const LIMITED_KEY = 'kbqa-console-limited-key-0123456789abcdefgh';
const CONSOLE = { 'x-kbqa-console': '1' };

const world = (t: ExecutionContext, env: Record<string, string> = {}) =>
  httpSpec(t, { now: NOW, env })
    .given(
      knowledgeBaseCreated({ id: 'kb_docs' }),
      knowledgeBaseCreated({ id: 'kb_other' }),
      apiKeyCreated({ id: 'key_console', secret: KEY, scopes: ['write'] }),
      apiKeyCreated({ id: 'key_limited', secret: LIMITED_KEY, scopes: ['read'], knowledgeBaseIds: ['kb_docs'] }),
    )
    .app();

/** Signs in; the cookie as a browser would send it back (`name=value`), and the Set-Cookie header it came in. */
async function signIn(app: SpecApp, apiKey = KEY) {
  const res = await app.call('POST', '/console/session', { key: null, json: { api_key: apiKey }, headers: CONSOLE });
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { res, setCookie, cookie: setCookie.split(';')[0]! };
}

/** A /v1 request signed by the cookie alone (no Authorization), with the console's header unless told otherwise. */
const asConsole = (app: SpecApp, cookie: string, path = '/v1/knowledge-bases', headers: Record<string, string> = CONSOLE) =>
  app.call('GET', path, { key: null, headers: { cookie, ...headers } });

const errorCode = (body: any) => body.error?.code as string | undefined;

test('sign-in sets an HttpOnly, SameSite=Strict, Secure, Path=/ __Host- cookie for 12 hours; the cookie then signs /v1 requests as the key', async (t) => {
  const app = await world(t);
  const { res, setCookie, cookie } = await signIn(app);
  t.is(res.status, 204);
  t.is(res.body, '');
  t.regex(setCookie, /^__Host-kbqa_console=v1\.[\w-]+; /);
  t.regex(setCookie, /; path=\/;/i);
  t.notRegex(setCookie, /; domain=/i);
  t.regex(setCookie, /; httponly/i);
  t.regex(setCookie, /; samesite=strict/i);
  t.regex(setCookie, /; secure/i, 'loopback over http: a secure context, where the browser keeps a Secure cookie');
  t.regex(setCookie, new RegExp(`; expires=${new Date(Date.parse(NOW) + CONSOLE_SESSION_TTL_MS).toUTCString()}`, 'i'));

  const listed = await asConsole(app, cookie);
  t.is(listed.status, 200);
  t.deepEqual(listed.body.data.map((kb: { id: string }) => kb.id).sort(), ['kb_docs', 'kb_other']);
  const session = await app.call('GET', '/console/session', { key: null, headers: { cookie, ...CONSOLE } });
  t.deepEqual(session.body, {
    object: 'console.session',
    workspace_id: 'default',
    key_id: 'key_console',
    scopes: ['write'],
    knowledge_base_ids: null,
    expires_at: new Date(Date.parse(NOW) + CONSOLE_SESSION_TTL_MS).toISOString(),
  });
  // A bearer key wins over the cookie: the cookie is the console's, the header a client's own choice.
  const bearer = await app.call('GET', '/v1/knowledge-bases', { key: LIMITED_KEY, headers: { cookie } });
  t.deepEqual(bearer.body.data.map((kb: { id: string }) => kb.id), ['kb_docs']);
});

test("a session says what its key may do, and answers for it: a read key limited to one knowledge base is refused elsewhere", async (t) => {
  const app = await world(t);
  const { cookie } = await signIn(app, LIMITED_KEY);
  const session = await app.call('GET', '/console/session', { key: null, headers: { cookie, ...CONSOLE } });
  t.like(session.body, { key_id: 'key_limited', scopes: ['read'], knowledge_base_ids: ['kb_docs'] });
  t.is((await asConsole(app, cookie, '/v1/knowledge-bases/kb_docs')).status, 200);
  t.is(errorCode((await asConsole(app, cookie, '/v1/knowledge-bases/kb_other')).body), 'knowledge_base_not_allowed');
  const write = await app.call('POST', '/v1/knowledge-bases', { key: null, json: { name: 'nope' }, headers: { cookie, ...CONSOLE } });
  t.is(write.status, 403);
  t.is(errorCode(write.body), 'insufficient_scope');
});

test('refusals: no console header 403, a wrong key 401, garbage, a tampered or another deployment’s cookie 401, no cookie 401', async (t) => {
  const app = await world(t);
  const { cookie } = await signIn(app);
  const noHeader = await asConsole(app, cookie, '/v1/knowledge-bases', {});
  t.is(noHeader.status, 403);
  t.like(noHeader.body, { error: { type: 'permission_error', code: 'csrf_header_required' } });
  t.is((await asConsole(app, cookie, '/v1/knowledge-bases', { 'x-kbqa-console': 'true' })).status, 403);

  const wrong = await app.call('POST', '/console/session', { key: null, json: { api_key: 'kbqa-wrong-key' }, headers: CONSOLE });
  t.is(wrong.status, 401);
  t.like(wrong.body, { error: { type: 'authentication_error', code: 'invalid_api_key' } });
  t.is(wrong.headers.get('set-cookie'), null);
  const signInWithoutHeader = await app.call('POST', '/console/session', { key: null, json: { api_key: KEY } });
  t.is(signInWithoutHeader.status, 403);
  t.is(signInWithoutHeader.headers.get('set-cookie'), null);

  const [name, value] = cookie.split('=') as [string, string];
  const sealed = Buffer.from(value.slice('v1.'.length), 'base64url');
  sealed[sealed.length - 1]! ^= 1;
  const tampered = `${name}=v1.${sealed.toString('base64url')}`;
  for (const bad of [`${name}=garbage`, `${name}=v1.`, `${name}=v1.AAAA`, tampered]) {
    const res = await asConsole(app, bad);
    t.is(res.status, 401, bad);
    t.is(errorCode(res.body), 'invalid_console_session', bad);
  }
  // Sealed by another deployment (another master key): it does not open here.
  const elsewhere = await httpSpec(t, { now: NOW }).given(apiKeyCreated({ id: 'key_console', secret: KEY })).app();
  const foreign = await signIn(elsewhere);
  t.is(errorCode((await asConsole(app, foreign.cookie)).body), 'invalid_console_session');

  const none = await app.call('GET', '/console/session', { key: null, headers: CONSOLE });
  t.is(none.status, 401);
  t.is(errorCode(none.body), 'console_session_required');
  t.is(errorCode((await app.call('GET', '/v1/knowledge-bases', { key: null, headers: CONSOLE })).body), 'missing_api_key');
});

test('a session ends 12 hours after sign-in, however it was used; its key’s revocation ends it at once; sign-out clears the cookie', async (t) => {
  const app = await world(t);
  const { cookie } = await signIn(app);
  app.advanceClock(CONSOLE_SESSION_TTL_MS - 1000);
  t.is((await asConsole(app, cookie)).status, 200);
  app.advanceClock(1000);
  const expired = await asConsole(app, cookie);
  t.is(expired.status, 401);
  t.is(errorCode(expired.body), 'console_session_expired');

  const fresh = await signIn(app);
  t.is((await asConsole(app, fresh.cookie)).status, 200);
  t.is((await app.call('DELETE', '/v1/api-keys/key_console')).status, 200);
  const revoked = await asConsole(app, fresh.cookie);
  t.is(revoked.status, 401);
  t.is(errorCode(revoked.body), 'api_key_revoked');
  t.is(errorCode((await app.call('GET', '/console/session', { key: null, headers: { cookie: fresh.cookie, ...CONSOLE } })).body), 'api_key_revoked');
  const again = await app.call('POST', '/console/session', { key: null, json: { api_key: KEY }, headers: CONSOLE });
  t.is(errorCode(again.body), 'api_key_revoked');

  const out = await app.call('DELETE', '/console/session', { key: null, headers: { cookie: fresh.cookie, ...CONSOLE } });
  t.is(out.status, 204);
  t.is(out.headers.get('set-cookie'), '__Host-kbqa_console=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict; Secure');
  t.is((await app.call('DELETE', '/console/session', { key: null })).status, 403, 'sign-out needs the header too');
});

test('CORS lets no other origin send a request the cookie signs: neither credentials nor the console header are allowed', async (t) => {
  const app = await world(t, { KBQA_CORS_ORIGINS: 'https://app.example.com' });
  const preflight = await app.call('OPTIONS', '/v1/knowledge-bases', {
    key: null,
    headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-kbqa-console' },
  });
  t.is(preflight.status, 204);
  t.is(preflight.headers.get('access-control-allow-credentials'), null);
  t.false((preflight.headers.get('access-control-allow-headers') ?? '').includes('x-kbqa-console'));
});

test('behind an https proxy the cookie is the Secure __Host- one; over plain http to a LAN address, the plain name without Secure', async (t) => {
  const app = await world(t);
  const behindProxy = await app.call('POST', '/console/session', { key: null, json: { api_key: KEY }, headers: { ...CONSOLE, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'kbqa.example.com' } });
  t.is(behindProxy.status, 204);
  t.regex(behindProxy.headers.get('set-cookie')!, /^__Host-kbqa_console=v1\.[\w-]+; .*; Secure$/);

  // A browser keeps no Secure cookie from http://192.168.1.20: the session would never come back.
  const lan = { ...CONSOLE, 'x-forwarded-host': '192.168.1.20:3000' };
  const plain = await app.call('POST', '/console/session', { key: null, json: { api_key: KEY }, headers: lan });
  const setCookie = plain.headers.get('set-cookie')!;
  t.regex(setCookie, /^kbqa_console=v1\.[\w-]+; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
  const cookie = setCookie.split(';')[0]!;
  t.is((await asConsole(app, cookie, '/v1/knowledge-bases', lan)).status, 200);
  // That name is not read where the __Host- one is the session: a lone one there signs nothing.
  t.is(errorCode((await asConsole(app, cookie)).body), 'missing_api_key');
  t.is(errorCode((await app.call('GET', '/console/session', { key: null, headers: { cookie, ...CONSOLE } })).body), 'console_session_required');
});

test('cookie tossing: a request carrying two console session cookies, of either name, is refused 400 on /v1 and on the session route', async (t) => {
  const app = await world(t);
  const mine = (await signIn(app)).cookie;
  const theirs = (await signIn(app, LIMITED_KEY)).cookie;
  const tossed = theirs.replace(/^__Host-/, '');
  const lan = { ...CONSOLE, 'x-forwarded-host': '192.168.1.20:3000' };
  const cases: [string, Record<string, string>][] = [
    [`${tossed}; ${mine}`, CONSOLE],
    [`${mine}; ${theirs}`, CONSOLE],
    [`${tossed}; ${mine.replace(/^__Host-/, '')}`, lan],
  ];
  for (const [cookie, headers] of cases) {
    for (const res of [await asConsole(app, cookie, '/v1/knowledge-bases', headers), await app.call('GET', '/console/session', { key: null, headers: { cookie, ...headers } })]) {
      t.is(res.status, 400, cookie);
      t.like(res.body, { error: { type: 'invalid_request_error', code: 'duplicate_console_session', param: null } });
      t.regex(res.body.error.message, /more than one console session cookie/i);
    }
  }
  // A bearer request is a bearer request: the cookies are not looked at.
  t.is((await app.call('GET', '/v1/knowledge-bases', { key: KEY, headers: { cookie: `${tossed}; ${mine}` } })).status, 200);
  // Signing in again clears a plain-named cookie this host set (an older version's), so the new session stands alone.
  const again = await app.call('POST', '/console/session', { key: null, json: { api_key: KEY }, headers: { ...CONSOLE, cookie: tossed } });
  t.is(again.headers.getSetCookie().length, 2);
  t.is(again.headers.getSetCookie()[1], 'kbqa_console=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict');
});

test('sign-ins are limited per client address, right or wrong: 429 with retry-after', async (t) => {
  const app = await world(t, { KBQA_CONSOLE_SIGNINS_PER_MINUTE: '3' });
  // As a proxy in front would pass the client on: the last X-Forwarded-For entry is the one it saw.
  const from = (address: string, apiKey = KEY) =>
    app.call('POST', '/console/session', { key: null, json: { api_key: apiKey }, headers: { ...CONSOLE, 'x-forwarded-for': address } });
  const answers = [await from('203.0.113.9'), await from('203.0.113.9', 'kbqa-wrong-1'), await from('203.0.113.9', 'kbqa-wrong-2'), await from('203.0.113.9')];
  t.deepEqual(answers.map((r) => r.status), [204, 401, 401, 429]);
  t.like(answers[3]!.body, { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
  t.true(Number(answers[3]!.headers.get('retry-after')) >= 1);
  t.is(answers[3]!.headers.get('set-cookie'), null);
  t.is((await from('198.51.100.7, 203.0.113.9')).status, 429, 'an address the client writes before the proxy’s changes nothing');
  t.is((await from('203.0.113.10')).status, 204, 'another address has its own budget');
});

test('the key is nowhere in what the server sends: not in the cookie, in any form, nor in any answer', async (t) => {
  const app = await world(t);
  const forms = [KEY, Buffer.from(KEY).toString('base64'), Buffer.from(KEY).toString('base64url'), Buffer.from(KEY).toString('hex'), encodeURIComponent(KEY), KEY.slice(5, 25)];
  const { res, cookie } = await signIn(app);
  const answers = [
    res,
    await app.call('GET', '/console/session', { key: null, headers: { cookie, ...CONSOLE } }),
    await asConsole(app, cookie, '/v1/api-keys'),
    await app.call('DELETE', '/console/session', { key: null, headers: { cookie, ...CONSOLE } }),
    await app.call('POST', '/console/session', { key: null, json: { api_key: `${KEY}x` }, headers: CONSOLE }),
  ];
  for (const answer of answers) {
    const seen = `${[...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${JSON.stringify(answer.body)}`;
    for (const form of forms) t.false(seen.includes(form), `${form} in ${seen.slice(0, 200)}`);
  }
});
