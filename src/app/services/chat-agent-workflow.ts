import type { WorkflowRunDoc } from '../../../projections/workflow-runs/index.ts';
import { lastUserMessage } from '../../domain/chat/messages.ts';
import { countTokens } from '../../domain/document/tokens.ts';
import { ApiError } from '../../ports/api-error.ts';
import type { ChatDelta, ChatMessage } from '../../ports/models.ts';
import type { AppContext } from '../context.ts';
import type { PreparedChat } from './chat.ts';
import type { Principal } from './principal.ts';
import type { WorkflowService } from './workflows.ts';
import { retrievedCitations } from './workflow-run-citations.ts';
import { markersOf } from '../retrieval/retrieved-context.ts';

/** How long a chat waits for its workflow's run before giving up (the run goes on; its id is in the error). */
const RUN_WAIT_MS = 120_000;
const POLL_MS = 25;

/**
 * A workflow-backed agent's answer: its workflow runs with the question (the last user message) as
 * the start node's first text input, and the run's `answer` output is the chat's answer, its
 * `citations` output the citations (those of them its own retrieval gave: workflow-run-citations.ts).
 * The run is the workflow runner's, as any run: this waits for it in the read model, polling,
 * since the chat service has no feed of its own.
 */
export type WorkflowChatDeps = { ctx: AppContext; workflows: Pick<WorkflowService, 'workflow' | 'requestRun' | 'run'> };

export async function prepareWorkflowChat(
  deps: WorkflowChatDeps,
  principal: Principal,
  { workflowId, model, messages, signal }: { workflowId: string; model: string; messages: ChatMessage[]; signal: AbortSignal },
): Promise<PreparedChat> {
  const { ctx, workflows } = deps;
  const wf = await workflows.workflow(principal, workflowId);
  const start = wf.graph.nodes.find((n) => n.type === 'start');
  const inputs = start?.type === 'start' ? start.config.inputs : [];
  const name = inputs.find((i) => i.type === 'string')?.name ?? 'question';
  const question = lastUserMessage(messages);
  const { runId } = await workflows.requestRun(principal, workflowId, { inputs: { [name]: question }, mode: 'blocking' });
  const run = await finishedRun(() => workflows.run(principal, runId), signal);
  if (run.status !== 'succeeded') {
    const reason = run.status === 'failed' ? `failed: ${run.error?.message ?? 'no reason given'}` : `did not finish in ${RUN_WAIT_MS / 1000} s`;
    throw new ApiError(502, 'server_error', 'agent_workflow_failed', `The agent's workflow run ${runId} ${reason}.`);
  }
  const outputs = run.outputs ?? {};
  const content = typeof outputs.answer === 'string' ? outputs.answer : JSON.stringify(outputs);
  // Only what the run's own retrieval cited, over its own knowledge bases: a graph can put anything in its outputs.
  const chosen = retrievedCitations(run, outputs.citations, content);
  // The graph's choice is the context; the answer cites those of it its markers name, or (an answer without markers) all of that choice.
  const marked = markersOf(content);
  const citations = marked.size > 0 ? chosen.filter((c) => marked.has(c.index)) : chosen;
  const promptTokens = messages.reduce((n, m) => n + countTokens(m.content) + 4, 0);
  const usage = { promptTokens, completionTokens: countTokens(content) };
  return {
    id: `chatcmpl-${runId.slice('run_'.length)}`,
    created: Math.floor(ctx.now().getTime() / 1000),
    model,
    knowledgeBaseIds: [],
    provenance: run.knowledge_base_ids ?? [],
    query: question,
    context: chosen,
    grounding: null,
    cite: () => citations,
    async *generate(): AsyncIterable<ChatDelta> {
      yield { content };
      yield { finishReason: 'stop', usage };
    },
    complete: async () => ({ content, finishReason: 'stop', usage, firstTokenMs: 0 }),
    // The run is the record: WorkflowRunRequested and its node events are in the log already.
    record: async () => {},
  };
}

async function finishedRun(read: () => Promise<WorkflowRunDoc>, signal: AbortSignal): Promise<WorkflowRunDoc> {
  const deadline = Date.now() + RUN_WAIT_MS;
  for (;;) {
    const run = await read();
    if (run.status === 'succeeded' || run.status === 'failed' || Date.now() > deadline) return run;
    signal.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
