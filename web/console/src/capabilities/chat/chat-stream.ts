import type { EventSourceMessage } from 'eventsource-parser';
import { type Answer, ApiFailure, type RequestBody } from '../../api/client.ts';
import { postEvents } from '../../api/post-events.ts';

export type ChatRequest = RequestBody<'/v1/chat/completions', 'post'>;
export type Citation = Answer<'/v1/chat/completions', 'post'>['citations'][number];
/** A passage the model was given, cited or not (no quote). */
export type ContextPassage = Answer<'/v1/chat/completions', 'post'>['context'][number];

/** What a `chat.completion.chunk` may carry (docs/api/chat.md: the first chunk the context, the finishing one the citations). */
type Chunk = {
  id: string;
  choices: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  citations?: Citation[];
  context?: ContextPassage[];
  answerable?: boolean;
  coverage?: number;
};

export type StreamHandlers = {
  /** The completion's id (for feedback), the context, the citations and the verdict, as soon as a chunk carries them. */
  onMeta(meta: { id: string; citations?: Citation[]; context?: ContextPassage[]; answerable?: boolean; coverage?: number }): void;
  /** Each piece of the answer, the moment it arrives: the screen shows it before the next is read. */
  onText(text: string): void;
  onFinish(reason: string): void;
};

/**
 * POST /v1/chat/completions with `stream: true`, read as server-sent events over fetch (the console
 * header must go with it, which EventSource cannot send). Unlike the document event streams this
 * one is not resumable: a dropped answer is an error, not a reconnect.
 */
export async function streamChat(body: ChatRequest & { as_of?: string }, handlers: StreamHandlers, signal: AbortSignal): Promise<void> {
  let failure: ApiFailure | null = null;
  const onEvent = (message: EventSourceMessage) => {
    if (message.data === '[DONE]') return;
    if (message.event === 'error') {
      failure = failureFrom(message.data);
      return;
    }
    dispatch(JSON.parse(message.data) as Chunk, handlers);
  };
  await postEvents('/v1/chat/completions', { ...body, stream: true }, onEvent, signal);
  if (failure) throw failure;
}

function dispatch(chunk: Chunk, handlers: StreamHandlers) {
  if (chunk.citations || chunk.context || chunk.answerable !== undefined) {
    handlers.onMeta({ id: chunk.id, citations: chunk.citations, context: chunk.context, answerable: chunk.answerable, coverage: chunk.coverage });
  }
  const choice = chunk.choices[0];
  if (choice?.delta?.content) handlers.onText(choice.delta.content);
  if (choice?.finish_reason) handlers.onFinish(choice.finish_reason);
}

/** A mid-stream `event: error` carries the API's error body. */
function failureFrom(data: string): ApiFailure {
  try {
    const body = JSON.parse(data) as { error?: { message?: string; code?: string | null; type?: string } };
    return new ApiFailure(502, body.error?.code ?? body.error?.type ?? 'stream_error', body.error?.message ?? data);
  } catch {
    return new ApiFailure(502, 'stream_error', data);
  }
}
