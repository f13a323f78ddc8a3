import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { requireScope } from '../../app/services/principal.ts';
import { presentRun } from '../../app/services/workflows.ts';
import { recallsFor } from '../../app/retrieval/options.ts';
import { SearchBody } from '../../../schemas/http/search.ts';
import { includedParts, presentHit } from '../routes/search.ts';
import { waitForRun } from '../routes/workflow-runs.ts';
import type { McpCall, McpDeps } from './deps.ts';
import { asTool, toolResult, untilAborted, withSlot } from './results.ts';
import { askTool } from './ask-tool.ts';
import { retrievalFilter } from '../retrieval-filter.ts';
import { SearchFilterUnion, type SearchFilter } from '../../../schemas/http/filter.ts';

const kbId = z.string().min(1).max(200).describe('The knowledge base, as list_knowledge_bases names it (kb_…)');

/** The tools an MCP client sees; each calls the app service its REST route calls, as the request's key. */
export function registerTools(server: McpServer, deps: McpDeps, call: McpCall) {
  const { principal } = call;

  server.registerTool(
    'list_knowledge_bases',
    {
      title: 'List knowledge bases',
      description: 'The knowledge bases this API key may use, with their ids (for search and ask), descriptions and document counts.',
      inputSchema: {
        limit: z.int().min(1).max(100).default(50).describe('How many to list'),
        after: z.string().optional().describe('The last id of the previous page, to list the next one'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ limit, after }) =>
      asTool(deps, call, async () => {
        const page = await deps.knowledgeBases.list(principal, { limit, after, order: 'asc' });
        const lines = page.data.map((kb) => `- ${kb.id}: ${kb.name}${kb.description ? ` — ${kb.description}` : ''}`);
        const more = page.has_more ? `\n(more: call again with after=${page.last_id})` : '';
        return toolResult(lines.length ? `${lines.join('\n')}${more}` : 'No knowledge base is visible to this key.', page);
      }),
  );

  const { explain: _explain, ...searchShape } = SearchBody.shape;
  server.registerTool(
    'search',
    {
      title: 'Search a knowledge base',
      description: 'Passages of a knowledge base that match a query (hybrid vector, keyword and graph recall), best first, each with its document, page and score.',
      inputSchema: { knowledge_base_id: kbId, ...searchShape, filter: SearchFilterUnion.optional() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      asTool(deps, call, async () => {
        requireScope(principal, 'read');
        const request = {
          query: args.query,
          topK: args.top_k,
          scoreThreshold: args.score_threshold,
          mode: args.mode,
          rerank: args.rerank,
          filter: retrievalFilter(args.filter as SearchFilter | undefined),
        };
        const found = await withSlot(deps, 'query', extra.signal, () => deps.search.search(principal, args.knowledge_base_id, request, extra.signal));
        const hits = found.hits.map((h) => presentHit(h, includedParts({})));
        const recalls = recallsFor(args.mode, found.kb.settings);
        const text = hits.length
          ? hits.map((h, i) => `[${i + 1}] ${h.source}, page ${h.page} (document ${h.document_id}, score ${h.score.toFixed(3)})\n${h.paragraph}`).join('\n\n')
          : 'No passage matched.';
        return toolResult(text, {
          knowledge_base_id: found.kb.id,
          mode: recalls.length === 1 ? recalls[0] : 'hybrid',
          data: hits,
          coverage: found.coverage,
          answerable: found.answerable,
        });
      }),
  );

  askTool(server, deps, call, kbId);

  server.registerTool(
    'run_workflow',
    {
      title: 'Run a workflow',
      description: 'Runs a workflow with the given inputs and waits for it; answers with the run (status, outputs, each node’s result). Needs a key with the write scope.',
      inputSchema: {
        workflow_id: z.string().min(1).max(200).describe('The workflow (wf_…)'),
        inputs: z.record(z.string(), z.unknown()).default({}).describe('The values of the start node’s inputs, e.g. {"question": "…"}'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    ({ workflow_id, inputs }, extra) =>
      asTool(deps, call, async () => {
        requireScope(principal, 'write');
        const { workflows } = deps.workflows;
        const run = await withSlot(deps, 'run', extra.signal, async () => {
          const { runId } = await workflows.requestRun(principal, workflow_id, { inputs, mode: 'blocking' });
          const read = () => workflows.run(principal, runId);
          return untilAborted(waitForRun(deps.workflows, read, runId, deps.workflows.blockingWaitMs, extra.signal), extra.signal);
        });
        const presented = presentRun(run);
        if (run.status === 'failed') {
          const why = run.error ? `${run.error.code}: ${run.error.message}` : 'workflow_run_failed: the run failed';
          return { ...toolResult(`${why} (run ${run.id})`, presented), isError: true };
        }
        const text = run.status === 'succeeded' ? JSON.stringify(presented.outputs, null, 2) : `Run ${run.id} is still ${run.status}; read it later with the REST API (GET /v1/workflow-runs/${run.id}).`;
        return toolResult(text, presented);
      }),
  );
}
