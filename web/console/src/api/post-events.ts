import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { consoleFetch } from './client.ts';

/**
 * POSTs a JSON body and reads the answer as server-sent events, each handed on as it is parsed
 * (fetch and a streaming reader: EventSource can neither POST nor send the console's header). Not
 * resumable, unlike followEvents: a POST that streams (a chat answer, a workflow run) is one
 * request, and a dropped one is an error. Resolves when the server ends the stream.
 */
export async function postEvents(path: string, body: unknown, onEvent: (message: EventSourceMessage) => void, signal: AbortSignal): Promise<void> {
  const response = await consoleFetch(path, {
    method: 'POST',
    signal,
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  const parser = createParser({ onEvent });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
}
