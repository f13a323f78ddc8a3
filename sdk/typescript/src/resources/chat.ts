import { filterBody, toCitation, toContext } from '../citations.ts';
import { apiError, APIConnectionError, APIUserAbortError } from '../errors.ts';
import type { Transport } from '../http.ts';
import { readJsonEvents } from '../sse.ts';
import type { ChatChunk, ChatResult, Feedback, FeedbackParams, FinishReason, Message, QueryResult, SearchFilter, Usage, WireCitation } from '../types.ts';

export type ChatParams = {
  messages: Message[];
  /** Defaults to the client's `defaultModel` (`kbqa-extractive`). */
  model?: string;
  /** Answer from this knowledge base, citing its passages. */
  knowledgeBaseId?: string;
  /** Or from several: their passages fused by rank, each citation naming its knowledge_base_id. */
  knowledgeBaseIds?: string[];
  /** Retrieve only from documents whose metadata meets it. */
  filter?: SearchFilter;
  /** A conversation (`conv_…`) the chat continues: send only the new message; the turn is added to it. */
  conversation?: string;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
};

export type QueryOptions = {
  model?: string;
  /** Earlier turns of the conversation, for follow-up questions. */
  history?: Message[];
  /** Retrieve only from documents whose metadata meets it. */
  filter?: SearchFilter;
  /** A conversation (`conv_…`) the question continues, instead of `history`; the turn is added to it. */
  conversation?: string;
  signal?: AbortSignal;
};

type WireCompletion = {
  id: string;
  model: string;
  choices: { message: { content: string }; finish_reason: FinishReason }[];
  usage: Usage;
  citations: WireCitation[];
  context?: WireCitation[];
  knowledge_base_id: string | null;
  knowledge_base_ids?: string[];
  answerable?: boolean;
  coverage?: number;
};
type WireChunk = {
  id: string;
  model: string;
  choices: { delta: { content?: string }; finish_reason: FinishReason | null }[];
  citations?: WireCitation[];
  context?: WireCitation[];
  knowledge_base_id?: string | null;
  knowledge_base_ids?: string[];
  usage?: Usage | null;
};

export function chatResource(t: Transport, defaultModel: string) {
  const body = (p: ChatParams) => ({
    model: p.model ?? defaultModel,
    messages: p.messages,
    ...(p.knowledgeBaseId !== undefined && { knowledge_base_id: p.knowledgeBaseId }),
    ...(p.knowledgeBaseIds !== undefined && { knowledge_base_ids: p.knowledgeBaseIds }),
    ...(p.filter !== undefined && { filter: filterBody(p.filter) }),
    ...(p.conversation !== undefined && { conversation: p.conversation }),
    ...(p.temperature !== undefined && { temperature: p.temperature }),
    ...(p.maxTokens !== undefined && { max_tokens: p.maxTokens }),
  });

  return {
    /** One answer (`POST /v1/chat/completions`). */
    async create(params: ChatParams): Promise<ChatResult> {
      const { body: c } = await t.json<WireCompletion>({ method: 'POST', path: '/chat/completions', json: body(params), signal: params.signal });
      const choice = c.choices[0]!;
      return {
        id: c.id,
        model: c.model,
        content: choice.message.content,
        finish_reason: choice.finish_reason,
        citations: c.citations.map(toCitation),
        context: toContext(c.context),
        usage: c.usage,
        knowledge_base_id: c.knowledge_base_id,
        ...(c.knowledge_base_ids && { knowledge_base_ids: c.knowledge_base_ids }),
        ...(c.answerable !== undefined && { answerable: c.answerable, coverage: c.coverage }),
      };
    },

    /**
     * The answer as it is generated: `for await (const chunk of kbqa.chat.stream({...}))`. The
     * first chunk carries the `context`, the one with the finish reason the `citations`; an error the server sends mid-stream is thrown as its
     * APIError; leaving the loop early closes the connection.
     */
    async *stream(params: ChatParams & { includeUsage?: boolean }): AsyncGenerator<ChatChunk> {
      const json = { ...body(params), stream: true, ...(params.includeUsage && { stream_options: { include_usage: true } }) };
      const stream = await t.stream({ method: 'POST', path: '/chat/completions', json, signal: params.signal });
      try {
        for await (const { event, data } of readJsonEvents(stream)) {
          if (event === 'done') return;
          if (event === 'error') throw apiError(data.status ?? 500, data);
          yield toChunk(data as WireChunk);
        }
      } catch (error) {
        if (params.signal?.aborted) throw new APIUserAbortError('The stream was aborted.', { cause: error });
        throw error;
      }
      throw new APIConnectionError('The chat stream ended before [DONE].');
    },

    /** Rates a chat's answer (`POST /v1/chat/completions/{id}/feedback`): `up` or `down`, with an optional comment. */
    async feedback(chatId: string, params: FeedbackParams & { signal?: AbortSignal }): Promise<Feedback> {
      const { signal, ...json } = params;
      return (await t.json<Feedback>({ method: 'POST', path: `/chat/completions/${encodeURIComponent(chatId)}/feedback`, json, signal })).body;
    },

    /** SPEC.md's query operation (`POST /v1/chat`): the answer to a question and the passages it cites. */
    async query(kbId: string | string[], question: string, options: QueryOptions = {}): Promise<QueryResult> {
      const json = body({
        model: options.model,
        ...(Array.isArray(kbId) ? { knowledgeBaseIds: kbId } : { knowledgeBaseId: kbId }),
        filter: options.filter,
        conversation: options.conversation,
        messages: [...(options.history ?? []), { role: 'user', content: question }],
      });
      const { body: a } = await t.json<{ id: string; model: string; content: string; citations: WireCitation[]; context?: WireCitation[]; answerable?: boolean; coverage?: number }>({
        method: 'POST',
        path: '/chat',
        json,
        signal: options.signal,
      });
      const grounding = a.answerable === undefined ? {} : { answerable: a.answerable, coverage: a.coverage };
      return { id: a.id, model: a.model, answer: a.content, citations: a.citations.map(toCitation), context: toContext(a.context), ...grounding };
    },
  };
}

function toChunk(c: WireChunk): ChatChunk {
  const choice = c.choices[0];
  return {
    id: c.id,
    model: c.model,
    content: choice?.delta.content ?? '',
    finish_reason: choice?.finish_reason ?? null,
    ...(c.citations && { citations: c.citations.map(toCitation) }),
    ...(c.context && { context: toContext(c.context) }),
    ...(c.knowledge_base_id !== undefined && { knowledge_base_id: c.knowledge_base_id }),
    ...(c.knowledge_base_ids && { knowledge_base_ids: c.knowledge_base_ids }),
    ...(c.usage !== undefined && { usage: c.usage }),
  };
}

export type ChatResource = ReturnType<typeof chatResource>;
