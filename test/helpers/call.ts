import { ADMIN_KEY } from './admin-key.ts';

export type CallOptions = { key?: string | null; json?: unknown; raw?: string; headers?: Record<string, string> };

/** The answer to a call: JSON bodies parsed, other bodies (metrics, say) as text. */
export type Reply = { status: number; headers: Headers; body: any };

/** One request as a client sends it, with the admin key unless `key` says otherwise (null: none). */
export async function call(url: string, method: string, path: string, { key = ADMIN_KEY, json, raw, headers = {} }: CallOptions = {}): Promise<Reply> {
  const response = await fetch(url + path, {
    method,
    headers: {
      ...(key !== null && { authorization: `Bearer ${key}` }),
      ...((json !== undefined || raw !== undefined) && { 'content-type': 'application/json' }),
      ...headers,
    },
    body: raw ?? (json === undefined ? undefined : JSON.stringify(json)),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // metrics and other plain-text bodies stay text
  }
  return { status: response.status, headers: response.headers, body };
}
