import type { ChatOutcome, ChatService } from '../../app/services/chat.ts';
import { ChatCompletion, ChatCompletionBody, QuickChatResponse } from '../../../schemas/http/chat.ts';
import { toChatInput } from '../chat-input.ts';
import { abortOnDisconnect } from '../client-abort.ts';
import { type Reply, route } from '../route.ts';
import { openEventStream } from '../sse.ts';
import { streamChatCompletion, usageBody } from '../sse-chat.ts';

const tag = 'chat';

/** As OpenAI answers: content null when the model only called tools. */
const messageOf = ({ content, toolCalls }: ChatOutcome) => ({
  role: 'assistant' as const,
  content: toolCalls && content === '' ? null : content,
  refusal: null,
  ...(toolCalls && { tool_calls: toolCalls }),
});
const chatStream =
  'With `stream: true`: `data:` lines of `chat.completion.chunk` objects (the first carries `context`, every passage the model was given; the one with the finish reason carries `citations`, the passages the answer cites, each with its `quote`), then `data: [DONE]`; a failure mid-stream is an `error` event.';

/** onServerError hears failures past the response's start (mid-stream, recording the chat), with the request's id. */
export function chatRoutes(chat: ChatService, onServerError: (error: unknown, requestId: string) => void) {
  /** Retrieval, then either one JSON answer or a chunk stream; the chat is recorded once answered. */
  async function answer(input: RouteInputs, present: 'completion' | 'quick'): Promise<Reply> {
    const { ctx, principal, body } = input;
    const onError = (error: unknown) => onServerError(error, input.requestId);
    const abort = abortOnDisconnect(ctx);
    const chatInput = toChatInput(body);
    const prepared = await chat.prepare(principal, chatInput, abort.signal);
    const record = (outcome: Parameters<typeof prepared.record>[0]) => prepared.record(outcome).catch(onError);
    if (chatInput.stream) {
      const stream = openEventStream(ctx, { onServerError: onError });
      streamChatCompletion(prepared, stream, { includeUsage: body.stream_options?.include_usage ?? false, onDone: (outcome) => void record(outcome) });
      return stream.reply;
    }
    const outcome = await prepared.complete(abort.signal);
    await record(outcome);
    if (present === 'quick') {
      return { body: { id: prepared.id, object: 'chat.answer', model: prepared.model, content: outcome.content, citations: prepared.cite(outcome.content), context: prepared.context, ...prepared.grounding } };
    }
    return {
      body: {
        id: prepared.id,
        object: 'chat.completion',
        created: prepared.created,
        model: prepared.model,
        choices: [{ index: 0, message: messageOf(outcome), finish_reason: outcome.finishReason, logprobs: outcome.logprobs ?? null }],
        usage: usageBody(outcome.usage),
        citations: prepared.cite(outcome.content),
        context: prepared.context,
        knowledge_base_id: prepared.knowledgeBaseIds[0] ?? null,
        ...(body.knowledge_base_ids && { knowledge_base_ids: prepared.knowledgeBaseIds }),
        ...prepared.grounding,
      },
    };
  }
  type RouteInputs = Parameters<Parameters<typeof route<typeof ChatCompletionBody>>[0]['handle']>[0];

  return [
    route({
      method: 'post',
      path: '/v1/chat/completions',
      summary: 'OpenAI-compatible chat; with knowledge_base_id (or knowledge_base_ids, and a metadata filter) the answer is grounded in retrieved passages and cites them',
      tag,
      scope: 'read',
      load: 'query',
      body: ChatCompletionBody,
      response: ChatCompletion,
      eventStream: chatStream,
      handle: (input) => answer(input, 'completion'),
    }),
    route({
      method: 'post',
      path: '/v1/chat',
      summary: 'Quick-start chat: the answer and its citations',
      tag,
      scope: 'read',
      load: 'query',
      body: ChatCompletionBody,
      response: QuickChatResponse,
      eventStream: chatStream,
      handle: (input) => answer(input, 'quick'),
    }),
  ];
}
