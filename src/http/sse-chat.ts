import { PassThrough } from 'node:stream';
import type { ChatOutcome, PreparedChat } from '../app/services/chat.ts';
import type { ChatUsage } from '../ports/models.ts';
import { toApiError } from './errors.ts';

export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

export const usageBody = (u: ChatUsage) => ({ prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, total_tokens: u.promptTokens + u.completionTokens });

/**
 * OpenAI's chat.completion.chunk stream: the first chunk carries the role and the citations
 * (retrieval is already done), then content deltas, a chunk with the finish reason, the usage
 * chunk when asked for, and `[DONE]`. A failure after the headers went out can no longer change
 * the status, so it is sent as an `error` event in OpenAI's error shape before the stream closes.
 */
export function streamChatCompletion(
  chat: PreparedChat,
  options: { includeUsage: boolean; abort: AbortController; onError(error: unknown): void; onDone(outcome: ChatOutcome): void },
): PassThrough {
  const out = new PassThrough();
  const base = { id: chat.id, object: 'chat.completion.chunk', created: chat.created, model: chat.model };
  const usageField = options.includeUsage ? { usage: null } : {};
  const send = (payload: unknown) => out.write(`data: ${JSON.stringify(payload)}\n\n`);
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...usageField,
  });

  void (async () => {
    const started = performance.now();
    let firstTokenMs: number | null = null;
    let content = '';
    try {
      send({ ...chunk({ role: 'assistant', content: '' }, null), citations: chat.citations, knowledge_base_id: chat.knowledgeBaseId });
      for await (const delta of chat.generate(options.abort.signal)) {
        if ('content' in delta) {
          if (delta.content === '') continue;
          firstTokenMs ??= performance.now() - started;
          content += delta.content;
          send(chunk({ content: delta.content }, null));
          continue;
        }
        send(chunk({}, delta.finishReason));
        if (options.includeUsage) send({ ...base, choices: [], usage: usageBody(delta.usage) });
        out.write('data: [DONE]\n\n');
        options.onDone({ content, finishReason: delta.finishReason, usage: delta.usage, firstTokenMs });
      }
    } catch (error) {
      if (options.abort.signal.aborted) return;
      options.onError(error);
      const { status, type, code, message, param } = toApiError(error);
      out.write(`event: error\ndata: ${JSON.stringify({ error: { message, type, param, code }, status })}\n\n`);
    } finally {
      out.end();
    }
  })();
  return out;
}
