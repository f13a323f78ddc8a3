import test from 'ava';
import { chooseLogFormat, formatLogLine } from '../../src/adapters/local/pretty-log.ts';
import { loadConfig } from '../../src/config.ts';

const at = Date.UTC(2026, 11, 1, 23, 40, 12, 153);
const localClock = () => {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:12.153`;
};

test('a request line reads as time, level, method, route, status and duration, then its ids', (t) => {
  const line = JSON.stringify({ level: 30, time: at, service: 'kbqa', requestId: 'req_2b55', keyId: 'key_admin66', method: 'POST', route: '/v1/knowledge-bases/:kb_id/search', status: 200, ms: 12.4, msg: 'request' });
  t.is(formatLogLine(line), `${localClock()} INFO  POST /v1/knowledge-bases/:kb_id/search 200 12.4 ms  requestId=req_2b55 keyId=key_admin66\n`);
});

test('an unmatched path, an aborted request, an error with its stack, and a line that is not JSON', (t) => {
  const unmatched = JSON.stringify({ level: 30, time: at, requestId: 'r1', keyId: null, method: 'GET', route: null, path: '/nope', status: 404, ms: 0.8, msg: 'request' });
  t.is(formatLogLine(unmatched), `${localClock()} INFO  GET /nope 404 0.8 ms  requestId=r1 keyId=null\n`);
  const aborted = JSON.stringify({ level: 30, time: at, requestId: 'r2', keyId: 'k', method: 'POST', route: '/v1/chat/completions', status: null, ms: 30, aborted: true, msg: 'request aborted by the client' });
  t.is(formatLogLine(aborted), `${localClock()} INFO  POST /v1/chat/completions (nothing sent) 30 ms (request aborted by the client)  requestId=r2 keyId=k aborted=true\n`);
  const failed = JSON.stringify({ level: 50, time: at, requestId: 'r3', err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (a.ts:1:1)' }, msg: 'request failed' });
  t.is(formatLogLine(failed), `${localClock()} ERROR request failed  requestId=r3\n    Error: boom\n        at x (a.ts:1:1)\n`);
  t.is(formatLogLine('not json'), 'not json\n');
});

test('the format: human lines on a terminal, JSON otherwise, unless KBQA_LOG_FORMAT chooses', (t) => {
  t.is(chooseLogFormat('auto', true), 'pretty');
  t.is(chooseLogFormat('auto', false), 'json');
  t.is(chooseLogFormat('json', true), 'json');
  t.is(chooseLogFormat('pretty', false), 'pretty');
  t.is(loadConfig({}).logFormat, 'auto');
  t.is(loadConfig({ KBQA_LOG_FORMAT: 'json' }).logFormat, 'json');
  t.throws(() => loadConfig({ KBQA_LOG_FORMAT: 'fancy' }), { message: /KBQA_LOG_FORMAT/ });
});
