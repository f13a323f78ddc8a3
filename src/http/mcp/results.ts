import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../ports/api-error.ts';
import type { LoadClass } from '../load-shedding.ts';
import type { McpCall, McpDeps } from './deps.ts';

/** What a tool answers: text for the model that called it, the same facts as structured content for programs. */
export const toolResult = (text: string, structured: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured,
});

/**
 * Runs a tool's body and turns a failure into an MCP tool error (`isError`), not a protocol error:
 * the calling model reads why (the API's error code first, as the REST API would answer) and can
 * correct itself. A server fault is logged and its message withheld, as the REST API does.
 */
export async function asTool(deps: McpDeps, call: McpCall, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return { isError: true, content: [{ type: 'text', text: describeFailure(deps, call, error) }] };
  }
}

/** Takes a slot of the class the REST route of the same work takes, so MCP traffic cannot bypass load shedding. */
export async function withSlot<T>(deps: McpDeps, load: LoadClass, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  const release = await deps.loadShedder.acquire(load, signal);
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * The promise, or a rejection once `signal` aborts: a wait that never settles on abort (a run's)
 * must not hold its slot after the client left.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ApiError(499, 'invalid_request_error', 'client_gone', 'The client cancelled the request.'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A resource read fails as a protocol error (MCP has no error result for reads), with the same code in its message. */
export async function asResource<T>(deps: McpDeps, call: McpCall, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const code = error instanceof ApiError && error.status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
    throw new McpError(code, describeFailure(deps, call, error));
  }
}

function describeFailure(deps: McpDeps, call: McpCall, error: unknown): string {
  // An overloaded server's 503 is the client's to act on (retry later), so it is told like a 4xx.
  if (error instanceof ApiError && (error.status < 500 || error.status === 503)) return `${error.code}: ${error.message}`;
  deps.onServerError(error, call.requestId);
  return `server_error: The server failed on this request (request id ${call.requestId}).`;
}
