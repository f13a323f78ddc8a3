import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpCall, McpDeps } from './deps.ts';
import { registerDocumentResources } from './resources.ts';
import { registerTools } from './tools.ts';

const INSTRUCTIONS =
  'KBQA answers questions from knowledge bases of documents. Call list_knowledge_bases for their ids, then search for passages or ask for a cited answer; ' +
  'documents are resources (kbqa://knowledge-bases/{kb}/documents/{doc}, and …/metadata).';

/** An MCP server for one request, acting as its key: what it lists, reads and runs is what that key may. */
export function createMcpServer(deps: McpDeps, call: McpCall): McpServer {
  const server = new McpServer({ name: 'kbqa', version: deps.version }, { instructions: INSTRUCTIONS });
  registerTools(server, deps, call);
  registerDocumentResources(server, deps, call);
  return server;
}
