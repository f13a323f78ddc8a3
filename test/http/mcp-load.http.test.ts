import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { settledDocument } from '../helpers/documents.ts';
import { loopbackChatEnv, startChatServer } from '../helpers/provider-servers.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

/** MCP tools take the same load-shedding slots as their REST routes, and give them back when their client leaves. */

async function untilMetric(server: TestServer, pattern: RegExp, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test((await server.call('GET', '/metrics', { key: null })).body as string)) {
    if (Date.now() > deadline) throw new Error(`metrics never matched ${pattern}`);
    await sleep(20);
  }
}

async function connect(server: TestServer): Promise<Client> {
  const client = new Client({ name: 'kbqa-load-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${ADMIN_KEY}` } } }));
  return client;
}

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

test('a busy query class refuses an MCP search as a tool error; an ask whose client left frees its slot', async (t) => {
  // A provider that takes 10 s to answer: an ask through it holds its query slot for that long unless its client goes.
  const provider = await startChatServer({ stallMs: 10_000 });
  const server = await startServer({
    ...loopbackChatEnv(provider.baseUrl),
    KBQA_RATE_LIMIT_PER_MINUTE: '0',
    KBQA_QUERY_CONCURRENCY: '1',
    KBQA_QUERY_QUEUE: '0',
  });
  try {
    const kb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'busy' } })).body.id as string;
    const up = await server.call('POST', `/v1/knowledge-bases/${kb}/documents`, { json: { name: 'vault.md', text: 'The vault code of the archive is 4711.' } });
    await settledDocument(server, kb, up.body.data[0].id);

    const asker = await connect(server);
    const asked = asker.callTool({ name: 'ask', arguments: { knowledge_base_id: kb, question: 'What is the vault code of the archive?', model: 'loop-chat' } });
    asked.catch(() => {});
    await untilMetric(server, /kbqa_load_in_flight\{class="query"\} 1/);

    const other = await connect(server);
    const refused = (await other.callTool({ name: 'search', arguments: { knowledge_base_id: kb, query: 'vault code' } })) as CallToolResult;
    t.true(refused.isError);
    t.regex(textOf(refused), /^server_overloaded: /);
    t.is((await other.listTools()).tools.length, 4, 'listing takes no slot');

    // Stateless: a cancellation would reach another server instance; closing the connection is what reaches this one.
    await asker.close();
    await t.throwsAsync(asked);
    // Well before the provider would answer: the slot is freed by the client leaving, not by the answer.
    await untilMetric(server, /kbqa_load_in_flight\{class="query"\} 0/, 5_000);
    const served = (await other.callTool({ name: 'search', arguments: { knowledge_base_id: kb, query: 'vault code' } })) as CallToolResult;
    t.falsy(served.isError, textOf(served));
    t.true(textOf(served).includes('4711'));
    await other.close();
  } finally {
    await server.close();
    await provider.close();
  }
});
