import { type HostAllowList, NOTHING_ALLOWED } from '../../lib/address-policy.ts';
import { GuardedHttpError } from '../../lib/guarded-http/errors.ts';
import { guardedRequest, type GuardedResponse } from '../../lib/guarded-http/request.ts';
import { backoffDelay, sleep } from '../../lib/retry.ts';
import { type HttpRequest, type HttpResponse, NodeFailure } from '../../domain/workflow/nodes/node-type.ts';

/** A workspace's secret values by name; undefined when it has no such secret. */
export type SecretValues = { valueOf(workspaceId: string, name: string): Promise<string | undefined> };

export type HttpNodeDeps = { allow?: HostAllowList; secrets?: SecretValues };

const BACKOFF = { attempts: 5, baseMs: 200, maxMs: 2000 };

/**
 * The http_request node's side of the port: secrets resolved by name, the guarded request
 * (src/lib/guarded-http: SSRF refused after DNS and on every redirect), retries on a network
 * failure or a 5xx with backoff. The secrets' values are scrubbed from what comes back (a server
 * that echoes its request headers would otherwise put them in the run's record) and from errors.
 */
export async function sendHttpRequest(deps: HttpNodeDeps, request: HttpRequest, signal: AbortSignal): Promise<HttpResponse> {
  const secretValues = await resolveSecrets(deps, request);
  const scrub = scrubber(Object.values(secretValues));
  const guarded = {
    method: request.method,
    url: request.url,
    headers: { 'user-agent': 'kbqa-workflow', ...request.headers, ...secretValues },
    body: request.body,
    timeoutMs: request.timeoutMs,
    maxResponseBytes: request.maxResponseBytes,
    allow: deps.allow ?? NOTHING_ALLOWED,
    sensitiveHeaders: Object.keys(secretValues),
    signal,
  };
  for (let attempt = 1; ; attempt++) {
    let response: GuardedResponse;
    try {
      response = await guardedRequest(guarded);
    } catch (error) {
      if (!(error instanceof GuardedHttpError)) throw error;
      if (error.retriable && attempt <= request.retries && !signal.aborted) {
        await sleep(backoffDelay(attempt, BACKOFF));
        continue;
      }
      throw new NodeFailure(error.code, scrub(error.message));
    }
    if (response.status >= 500 && attempt <= request.retries && !signal.aborted) {
      await sleep(backoffDelay(attempt, BACKOFF));
      continue;
    }
    const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.map(scrub) : value && scrub(value)]));
    return { status: response.status, headers, body: scrub(response.body.toString('utf8')) };
  }
}

async function resolveSecrets(deps: HttpNodeDeps, request: HttpRequest): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const [header, name] of Object.entries(request.secretHeaders)) {
    const value = await deps.secrets?.valueOf(request.workspaceId, name);
    if (value === undefined) throw new NodeFailure('secret_not_found', `the secret '${name}' (for the header ${header}) does not exist in this workspace`);
    if (/[\r\n\0]/.test(value)) throw new NodeFailure('invalid_request', `the secret '${name}' cannot be a header value: it holds a line break`);
    values[header] = value;
  }
  return values;
}

/** Replaces each secret's value with [secret]; values too short to be told from ordinary text are left. */
function scrubber(secrets: readonly string[]): (text: string) => string {
  const long = secrets.filter((s) => s.length >= 6);
  if (long.length === 0) return (text) => text;
  return (text) => long.reduce((out, secret) => out.split(secret).join('[secret]'), text);
}
