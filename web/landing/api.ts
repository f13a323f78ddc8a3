import { EventSourceParserStream } from 'eventsource-parser/stream';

/** The public citation shape (docs/landing-page.md): nothing that names a knowledge base or chunk. */
export type Citation = { index: number; source: string; page: number | null; paragraph?: string; quote: string | null; image_url: string | null };
export type ChatMessage = { role: 'user' | 'assistant'; content: string };
export type HistoryMessage = ChatMessage & { id: string; citations?: Citation[] };

/** Why a request failed, as the page words it: one kind per thing the visitor can do about it. */
export type Failure =
  | { kind: 'access_code'; invalid: boolean }
  | { kind: 'rate_limited'; retryAfter: number }
  | { kind: 'daily_cap' }
  | { kind: 'not_found' }
  | { kind: 'network' }
  | { kind: 'failed' };

export class RequestFailed extends Error {
  constructor(readonly failure: Failure) {
    super(failure.kind);
  }
}

/** One piece of a streamed answer: `chat.completion.chunk`; the finishing one carries the contract's `citations`, what the answer cites. */
type Chunk = { id?: string; choices?: { delta?: { content?: string | null } }[]; citations?: Citation[] };
export type AnswerUpdate = { id?: string; text?: string; citations?: Citation[] };

export function createApi(slug: string) {
  const base = `/a/${encodeURIComponent(slug)}`;
  return {
    /** Streams the answer to `messages`; `onUpdate` gets each text delta and the citations as they come. */
    async chat(messages: ChatMessage[], accessCode: string | undefined, onUpdate: (update: AnswerUpdate) => void): Promise<void> {
      const response = await send(`${base}/chat`, { messages, stream: true, ...(accessCode ? { access_code: accessCode } : {}) });
      const events = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      for (;;) {
        const { done, value } = await events.read().catch(() => {
          throw new RequestFailed({ kind: 'network' });
        });
        // Ended without `[DONE]`: cut short (a proxy, a restart), not a whole answer.
        if (done) throw new RequestFailed({ kind: 'network' });
        if (value.data === '[DONE]') return;
        // A failure mid-stream is an `error` event with the API's error body and its status (src/http/sse.ts).
        if (value.event === 'error') {
          const { error, status } = JSON.parse(value.data) as { error?: { code?: string }; status?: number };
          throw new RequestFailed(failure(status ?? 500, error?.code, null));
        }
        const chunk = JSON.parse(value.data) as Chunk;
        onUpdate({ id: chunk.id, text: chunk.choices?.[0]?.delta?.content ?? undefined, citations: chunk.citations });
      }
    },
    async feedback(messageId: string, rating: 'up' | 'down'): Promise<void> {
      await send(`${base}/feedback`, { message_id: messageId, rating });
    },
    /** This visitor's conversation so far; none when the server has none to give. */
    async history(): Promise<HistoryMessage[]> {
      const response = await fetch(`${base}/history`, { credentials: 'same-origin' }).catch(() => undefined);
      if (!response?.ok) return [];
      const body = (await response.json()) as { messages?: HistoryMessage[] };
      return body.messages ?? [];
    },
  };
}

async function send(url: string, body: unknown): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    throw new RequestFailed({ kind: 'network' });
  }
  if (!response.ok) throw new RequestFailed(await failureOf(response));
  return response;
}

async function failureOf(response: Response): Promise<Failure> {
  const code = ((await response.json().catch(() => ({}))) as { error?: { code?: string } }).error?.code;
  return failure(response.status, code, response.headers.get('retry-after'));
}

/** The API's error (status, `error.code`, `retry-after`) as one of the page's failures. */
function failure(status: number, code: string | undefined, retryAfter: string | null): Failure {
  if (code === 'access_code_required' || code === 'access_code_invalid') return { kind: 'access_code', invalid: code === 'access_code_invalid' };
  if (code === 'visitor_daily_cap_reached' || code === 'agent_daily_cap_reached') return { kind: 'daily_cap' };
  if (status === 429) return { kind: 'rate_limited', retryAfter: Math.max(1, Number(retryAfter) || 30) };
  if (status === 404) return { kind: 'not_found' };
  return { kind: 'failed' };
}
