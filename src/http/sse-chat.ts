import type { ChatOutcome, PreparedChat } from '../app/services/chat.ts';
import type { ChatUsage } from '../ports/models.ts';
import type { EventStream } from './sse.ts';

export const usageBody = (u: ChatUsage) => ({ prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, total_tokens: u.promptTokens + u.completionTokens });

/**
 * OpenAI's chat.completion.chunk stream: the first chunk carries the role and the `context`, every
 * passage the model is given (retrieval is already done), then content and tool-call deltas as the
 * model sends them, a chunk with the finish reason and the `citations`, the passages the answer
 * cites, each with the span its quote rests on (only then is the answer known), the usage
 * chunk when asked for, and `[DONE]`. A failure after the headers went out can no longer change
 * the status, so it is sent as an `error` event in OpenAI's error shape before the stream closes.
 * A client that leaves ends the stream, whose signal aborts the generation.
 */
export function streamChatCompletion(chat: PreparedChat, stream: EventStream, options: { includeUsage: boolean; onDone(outcome: ChatOutcome): void }) {
  const base = { id: chat.id, object: 'chat.completion.chunk', created: chat.created, model: chat.model };
  const usageField = options.includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finishReason: string | null, logprobs: unknown = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs, finish_reason: finishReason }],
    ...usageField,
  });

  void (async () => {
    const started = performance.now();
    let firstTokenMs: number | null = null;
    let content = '';
    try {
      stream.send({ ...chunk({ role: 'assistant', content: '' }, null), context: chat.context, knowledge_base_id: chat.knowledgeBaseIds[0] ?? null, ...(chat.knowledgeBaseIds.length > 1 && { knowledge_base_ids: chat.knowledgeBaseIds }), ...chat.grounding });
      for await (const delta of chat.generate(stream.signal)) {
        if ('content' in delta) {
          if (delta.content === '') continue;
          firstTokenMs ??= performance.now() - started;
          content += delta.content;
          stream.send(chunk({ content: delta.content }, null, delta.logprobs ?? null));
          continue;
        }
        if ('toolCalls' in delta) {
          firstTokenMs ??= performance.now() - started;
          stream.send(chunk({ tool_calls: delta.toolCalls }, null));
          continue;
        }
        stream.send({ ...chunk({}, delta.finishReason), citations: chat.cite(content) });
        if (options.includeUsage) stream.send({ ...base, choices: [], usage: usageBody(delta.usage) });
        stream.sendRaw('[DONE]');
        options.onDone({ content, finishReason: delta.finishReason, usage: delta.usage, firstTokenMs });
      }
      stream.end();
    } catch (error) {
      stream.fail(error);
    }
  })();
}
