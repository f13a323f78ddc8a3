import { type HostAllowList, NOTHING_ALLOWED, parseHostAllowList } from '../../lib/address-policy.ts';
import { GuardedHttpError } from '../../lib/guarded-http/errors.ts';
import { type BoundHeader, guardedRequest, type GuardedResponse } from '../../lib/guarded-http/request.ts';
import { backoffDelay, sleep } from '../../lib/retry.ts';
import { type Scrub, scrubValue, secretScrubber } from '../../lib/secret-scrub.ts';
import { type HttpRequest, type HttpResponse, NodeFailure } from '../../domain/workflow/nodes/node-type.ts';
import type { UsableSecret } from '../services/secrets.ts';

/** A workspace's secrets by name, with the hosts each may be sent to; undefined when it has no such secret. */
export type SecretValues = { usable(workspaceId: string, name: string): Promise<UsableSecret | undefined> };

export type HttpNodeDeps = { allow?: HostAllowList; secrets?: SecretValues };

const BACKOFF = { attempts: 5, baseMs: 200, maxMs: 2000 };

/**
 * The http_request node's side of the port: secrets resolved by name, the guarded request
 * (src/lib/guarded-http: SSRF refused after DNS and on every redirect), retries on a network
 * failure or a 5xx with backoff. A secret goes only to the hosts it names (its `allowed_hosts`,
 * checked on every hop after DNS): anywhere else the node fails with secret_destination_refused
 * before a byte is sent. The secrets' values, in every encoding src/lib/secret-scrub.ts knows,
 * are scrubbed from what comes back (a server that echoes its request headers would otherwise put
 * them in the run's record) and from errors.
 */
export async function sendHttpRequest(deps: HttpNodeDeps, request: HttpRequest, signal: AbortSignal): Promise<HttpResponse> {
  const secrets = await resolveSecrets(deps, request);
  const scrub = secretScrubber(secrets.map((s) => s.value));
  const guarded = {
    method: request.method,
    url: request.url,
    headers: { 'user-agent': 'kbqa-workflow', ...request.headers, ...Object.fromEntries(secrets.map((s) => [s.header, s.value])) },
    body: request.body,
    timeoutMs: request.timeoutMs,
    maxResponseBytes: request.maxResponseBytes,
    allow: deps.allow ?? NOTHING_ALLOWED,
    sensitiveHeaders: secrets.map((s) => s.header),
    boundHeaders: secrets.map(boundHeader),
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
      throw new NodeFailure(error.code === 'http_destination_refused' ? 'secret_destination_refused' : error.code, scrub(error.message));
    }
    if (response.status >= 500 && attempt <= request.retries && !signal.aborted) {
      await sleep(backoffDelay(attempt, BACKOFF));
      continue;
    }
    const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.map(scrub) : value && scrub(value)]));
    const text = response.body.toString('utf8');
    return { status: response.status, headers, body: secrets.length === 0 ? text : scrubbedBody(text, scrub) };
  }
}

/**
 * The body scrubbed as text, and, should it be JSON whose parsed strings still hold a secret (a
 * \u escape in the middle of it spells no form the scrubber knows), re-serialised from its scrubbed
 * value: the node's `json` output is parsed from this text.
 */
function scrubbedBody(text: string, scrub: Scrub): string {
  const scrubbed = scrub(text);
  if (!scrubbed.includes('\\')) return scrubbed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(scrubbed);
  } catch {
    return scrubbed;
  }
  const clean = scrubValue(parsed, scrub);
  return JSON.stringify(clean) === JSON.stringify(parsed) ? scrubbed : JSON.stringify(clean);
}

type ResolvedSecret = { header: string; name: string; value: string; allowedHosts: readonly string[] };

async function resolveSecrets(deps: HttpNodeDeps, request: HttpRequest): Promise<ResolvedSecret[]> {
  const resolved: ResolvedSecret[] = [];
  for (const [header, name] of Object.entries(request.secretHeaders)) {
    const secret = await deps.secrets?.usable(request.workspaceId, name);
    if (secret === undefined) throw new NodeFailure('secret_not_found', `the secret '${name}' (for the header ${header}) does not exist in this workspace`);
    if (/[\r\n\0]/.test(secret.value)) throw new NodeFailure('invalid_request', `the secret '${name}' cannot be a header value: it holds a line break`);
    if (secret.allowedHosts.length === 0) {
      throw new NodeFailure(
        'secret_destination_refused',
        `the secret '${name}' names no allowed_hosts, so it is sent nowhere; an admin key may name the hosts it is for with PATCH /v1/secrets/${name} {"allowed_hosts": ["api.example.com"]}`,
      );
    }
    resolved.push({ header, name, value: secret.value, allowedHosts: secret.allowedHosts });
  }
  return resolved;
}

/** A secret header may go only to a host (by name, or by the address it resolved to) its secret's allowed_hosts names. */
function boundHeader({ header, name, allowedHosts }: ResolvedSecret): BoundHeader {
  const allowed: HostAllowList = parseHostAllowList(allowedHosts);
  return {
    header,
    allows: (host, address) => allowed.allowsName(host) || allowed.allowsAddress(address),
    refusal: (host) => `the secret '${name}' (for the header ${header}) may not be sent to ${host}: its allowed_hosts are ${allowedHosts.join(', ')}`,
  };
}
