import { z } from 'zod';
import type { McpDeps } from '../mcp/deps.ts';
import { route } from '../route.ts';

/** A JSON-RPC message (or a batch, which older protocol versions allowed); the SDK checks the rest. */
const JsonRpcMessage = z.looseObject({ jsonrpc: z.literal('2.0') });
const McpBody = z.union([JsonRpcMessage, z.array(JsonRpcMessage).min(1).max(100)]);

/**
 * The MCP endpoint (streamable HTTP), stateless: each POST gets a fresh server and transport bound
 * to the key the request authenticated with, so any API process can serve any request and there
 * is no session to keep, share or expire. Without sessions there is nothing for GET (a server-sent
 * stream of notifications) or DELETE (ending a session) to do: the route table answers both with
 * 405, which the MCP clients expect from a stateless server.
 */
export function mcpRoutes(deps: McpDeps) {
  return [
    route({
      method: 'post',
      path: '/mcp',
      summary:
        'Model Context Protocol (streamable HTTP, stateless, JSON responses): tools list_knowledge_bases, search, ask and run_workflow (write scope); documents as resources. Each tool checks the key’s scope and knowledge bases.',
      tag: 'mcp',
      scope: 'read',
      body: McpBody,
      response: z.looseObject({ jsonrpc: z.literal('2.0') }).describe('The JSON-RPC response; a notification alone is answered 202 with no body'),
      otherStatuses: { 202: 'The request carried only notifications or responses.' },
      operationId: 'mcp',
      handle: async ({ ctx, principal, body, requestId }) => {
        const { handleMcpRequest } = await import('../mcp/handle.ts');
        // The transport writes the response itself.
        ctx.respond = false;
        await handleMcpRequest(deps, { principal, requestId }, ctx.req, ctx.res, body);
        return { body: undefined };
      },
    }),
  ];
}
