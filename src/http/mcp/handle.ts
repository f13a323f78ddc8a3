import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpCall, McpDeps } from './deps.ts';
import { createMcpServer } from './server.ts';

/**
 * Answers one MCP POST with a fresh server and transport bound to the request's key. The route
 * imports this module on the first MCP request: the SDK weighs about 23 MB, which a server
 * nobody reaches over MCP should not carry.
 */
export async function handleMcpRequest(deps: McpDeps, call: McpCall, req: IncomingMessage, res: ServerResponse, body: unknown) {
  const server = createMcpServer(deps, call);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
