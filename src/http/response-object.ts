import type { ChatOutcome, PreparedChat } from '../app/services/chat.ts';
import type { Citation } from '../app/retrieval/retrieved-context.ts';
import type { ChatUsage, ToolCall } from '../ports/models.ts';
import type { ResponseRequest } from './responses-input.ts';
import type { ResponseCreateBody } from '../../schemas/http/responses.ts';

/** What a response is made of before its answer: the request, the prepared chat and the response's id. */
export type ResponseFacts = {
  id: string;
  createdAt: number;
  body: ResponseCreateBody;
  request: ResponseRequest;
  prepared: PreparedChat;
  /** The Files API id of each cited document (its own id when no file holds its bytes). */
  fileIds: ReadonlyMap<string, string>;
};

/** OpenAI's file_citation, with the version of the document cited (issue 44): a field OpenAI's clients pass over. */
export type FileCitation = { type: 'file_citation'; index: number; file_id: string; filename: string; document_version: number };

/** The response an output item's id names (see itemIds), or null for an id not made here. */
export function responseIdOfItem(itemId: string): string | null {
  const match = /^(?:fs|msg|fc)_([0-9a-z]+)(?:_\d+)?$/.exec(itemId);
  return match ? `resp_${match[1]}` : null;
}

/** The ids of a response's output items, from the response's own (one search, one message per response). */
export const itemIds = (responseId: string) => {
  const suffix = responseId.slice('resp_'.length);
  return { search: `fs_${suffix}`, message: `msg_${suffix}`, call: (i: number) => `fc_${suffix}_${i}` };
};

/**
 * One file_citation per `[n]` marker the answer writes, at the marker's offset, naming the cited
 * passage's file (the Files API file that holds the document's bytes, else the document) and name.
 */
export function annotationsOf(text: string, citations: readonly Citation[], fileIds: ReadonlyMap<string, string>): FileCitation[] {
  const byIndex = new Map(citations.map((c) => [c.index, c]));
  const annotations: FileCitation[] = [];
  for (const match of text.matchAll(/\[(\d+)\]/g)) {
    const cited = byIndex.get(Number(match[1]));
    if (cited) annotations.push({ type: 'file_citation', index: match.index, file_id: fileIds.get(cited.document_id) ?? cited.document_id, filename: cited.source, document_version: cited.document_version });
  }
  return annotations;
}

/** The file_search_call item: the query retrieval ran, and with `include: ["file_search_call.results"]` the passages it found. */
export function fileSearchItem(facts: ResponseFacts, status: 'in_progress' | 'completed') {
  const { prepared, request } = facts;
  const results = prepared.context.map((c) => ({ file_id: facts.fileIds.get(c.document_id) ?? c.document_id, filename: c.source, score: c.score, text: c.paragraph, attributes: { page: c.page, knowledge_base_id: c.knowledge_base_id, chunk_id: c.chunk_id, document_version: c.document_version } }));
  return {
    type: 'file_search_call' as const,
    id: itemIds(facts.id).search,
    status,
    queries: status === 'completed' && prepared.query !== null ? [prepared.query] : [],
    results: status === 'completed' && request.includeResults ? results : null,
  };
}

export const messageItem = (facts: ResponseFacts, text: string, status: 'in_progress' | 'completed') => ({
  type: 'message' as const,
  id: itemIds(facts.id).message,
  status,
  role: 'assistant' as const,
  content: status === 'in_progress' ? [] : [outputText(text, annotationsOf(text, facts.prepared.cite(text), facts.fileIds))],
});

export const outputText = (text: string, annotations: FileCitation[]) => ({ type: 'output_text' as const, text, annotations, logprobs: [] });

export const functionCallItem = (facts: ResponseFacts, call: ToolCall, i: number, status: 'in_progress' | 'completed') => ({
  type: 'function_call' as const,
  id: itemIds(facts.id).call(i),
  call_id: call.id,
  name: call.function.name,
  arguments: status === 'completed' ? call.function.arguments : '',
  status,
});

/** The output items of an answer: the search (with a knowledge base), the function calls, and the message unless the model only called functions. */
export function outputOf(facts: ResponseFacts, outcome: Pick<ChatOutcome, 'content' | 'toolCalls'>) {
  const calls = outcome.toolCalls ?? [];
  return [
    ...(facts.prepared.knowledgeBaseIds.length > 0 ? [fileSearchItem(facts, 'completed')] : []),
    ...(outcome.content !== '' || calls.length === 0 ? [messageItem(facts, outcome.content, 'completed')] : []),
    ...calls.map((call, i) => functionCallItem(facts, call, i, 'completed')),
  ];
}

/** OpenAI's response object; `citations` (none until the answer is written), `context`, the knowledge bases and the grounding are ours, as chat returns them. */
export function responseObject(facts: ResponseFacts, state: { status: 'in_progress' | 'completed' | 'incomplete'; output: unknown[]; usage: ChatUsage | null; content: string }) {
  const { body, request, prepared } = facts;
  return {
    id: facts.id,
    object: 'response' as const,
    created_at: facts.createdAt,
    status: state.status,
    background: false,
    error: null,
    incomplete_details: state.status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: request.instructions,
    max_output_tokens: body.max_output_tokens ?? null,
    metadata: body.metadata ?? {},
    model: prepared.model,
    output: state.output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: request.previousResponseId,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: null },
    store: request.store,
    temperature: body.temperature ?? 1,
    text: { format: body.text?.format ?? { type: 'text' }, verbosity: body.text?.verbosity ?? 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? 'disabled',
    usage: state.usage && usageOf(state.usage),
    user: body.user ?? null,
    citations: state.status === 'in_progress' ? [] : prepared.cite(state.content),
    context: prepared.context,
    knowledge_base_ids: prepared.knowledgeBaseIds,
    ...prepared.grounding,
  };
}

const usageOf = (u: ChatUsage) => ({
  input_tokens: u.promptTokens,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: u.completionTokens,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: u.promptTokens + u.completionTokens,
});
