/** One server-sent event as a client parses it: `id` absent when the event has none; comment lines (heartbeats) are not events. */
export type SentEvent = { id?: string; event: string; data: any };

/** The events in a stream's text so far (complete events only: each ends with a blank line). */
export function parseEvents(text: string): SentEvent[] {
  const blocks = text.split('\n\n').slice(0, -1);
  return blocks.flatMap((block) => {
    const fields = block.split('\n').filter((line) => !line.startsWith(':'));
    if (fields.length === 0) return [];
    const value = (name: string) => fields.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
    const id = value('id');
    return [{ ...(id !== undefined && { id }), event: value('event') ?? 'message', data: JSON.parse(value('data') ?? 'null') }];
  });
}

/** Reads a server-sent event stream as it comes: `until` resolves once the text so far matches (or the events so far satisfy). */
export function reader(res: Response) {
  const body = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    text: () => text,
    events: () => parseEvents(text),
    async until(pattern: RegExp | ((events: SentEvent[]) => boolean)) {
      const met = () => (pattern instanceof RegExp ? pattern.test(text) : pattern(parseEvents(text)));
      while (!met()) {
        const { value, done } = await body.read();
        if (done) throw new Error(`the stream ended before ${String(pattern)}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
      return text;
    },
  };
}
