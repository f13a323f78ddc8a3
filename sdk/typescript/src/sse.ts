import type { ServerEvent } from './types.ts';

/** Raw server-sent events of a response body: `{event, data}` with `data` as text (comments dropped). */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\r|\n/);
      // The last piece may be a line still arriving (at the end of the body it is complete).
      buffer = done ? '' : lines.pop()!;
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
      }
      if (done) {
        if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
        return;
      }
    }
  } finally {
    // Leaving early (break, an error) closes the connection instead of reading it to the end.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** Server-sent events with JSON data; `[DONE]` (the chat stream's end marker) comes through as `{event: 'done'}`. */
export async function* readJsonEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent<any>> {
  for await (const { event, data } of readEvents(body)) {
    if (data === '[DONE]') {
      yield { event: 'done', data: null };
      continue;
    }
    yield { event, data: JSON.parse(data) };
  }
}
