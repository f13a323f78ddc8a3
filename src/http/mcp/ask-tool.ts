import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ApiError } from '../../ports/api-error.ts';
import type { Citation } from '../../app/retrieval/retrieved-context.ts';
import { requireScope } from '../../app/services/principal.ts';
import type { McpCall, McpDeps } from './deps.ts';
import { asTool, toolResult, withSlot } from './results.ts';

/**
 * `ask`: the answer /v1/chat gives (grounded in the knowledge base, cited), for one question. The
 * chat is recorded like any other, under the key that asked.
 */
export function askTool(server: McpServer, deps: McpDeps, call: McpCall, kbId: z.ZodString) {
  const { principal } = call;
  server.registerTool(
    'ask',
    {
      title: 'Ask a knowledge base',
      description:
        'Answers a question from a knowledge base’s documents, with numbered citations ([1], [2] …) naming each passage’s document and page. Says so when the documents do not cover the question.',
      inputSchema: {
        knowledge_base_id: kbId,
        question: z.string().trim().min(1).max(8000),
        model: z.string().min(1).max(200).optional().describe('A chat model of GET /v1/models; the deployment’s first chat model by default'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ knowledge_base_id, question, model }, extra) =>
      asTool(deps, call, async () => {
        requireScope(principal, 'read');
        const input = { model: model ?? defaultChatModel(deps), messages: [{ role: 'user' as const, content: question }], knowledgeBaseIds: [knowledge_base_id], stream: false };
        const { prepared, outcome } = await withSlot(deps, 'query', extra.signal, async () => {
          const chat = await deps.chat.prepare(principal, input, extra.signal);
          return { prepared: chat, outcome: await chat.complete(extra.signal) };
        });
        // Recording is bookkeeping: the answer stands if it fails, and the failure is logged.
        await prepared.record(outcome).catch((error: unknown) => deps.onServerError(error, call.requestId));
        const citations = prepared.cite(outcome.content);
        return toolResult(withSources(outcome.content, citations), {
          answer: outcome.content,
          citations,
          context: prepared.context,
          model: prepared.model,
          knowledge_base_id: knowledge_base_id,
          ...prepared.grounding,
        });
      }),
  );
}

function defaultChatModel(deps: McpDeps): string {
  const chat = deps.models.list().find((m) => m.kind === 'chat');
  if (!chat) throw new ApiError(404, 'not_found_error', 'model_not_found', 'This deployment has no chat model.', { param: 'model' });
  return chat.id;
}

/** The answer, then what its markers point at: a model reading only the text still sees the sources. */
function withSources(answer: string, citations: readonly Citation[]): string {
  if (citations.length === 0) return answer;
  const sources = citations.map((c) => `[${c.index}] ${c.source}, page ${c.page} (document ${c.document_id}, version ${c.document_version}): ${c.quote?.text ?? c.paragraph}`);
  return `${answer}\n\nSources:\n${sources.join('\n')}`;
}
