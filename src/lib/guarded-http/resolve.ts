import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type HostAllowList, isNonPublicAddress } from '../address-policy.ts';
import { GuardedHttpError } from './errors.ts';

/** The one address a request connects to: checked here, then pinned for the connection (no second lookup). */
export type CheckedTarget = { address: string; family: 4 | 6 };

/**
 * Resolves a URL's host and checks what it resolves to, so a name that points inside (a DNS record
 * for 127.0.0.1, `localhost`) is refused like the address itself. Every address the name has must
 * be public: a name with one public and one private address could otherwise be steered to the
 * private one. The WHATWG URL parser has already turned decimal, octal and hex spellings of an
 * IPv4 address (http://2130706433/) into dotted form.
 */
export async function checkedTarget(url: URL, allow: HostAllowList): Promise<CheckedTarget> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host);
  if (literal !== 0) {
    if (isNonPublicAddress(host) && !allow.allowsAddress(host)) throw refused(url, host);
    return { address: host, family: literal as 4 | 6 };
  }
  let found: { address: string; family: number }[];
  try {
    found = await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    throw new GuardedHttpError('http_network', `could not resolve the host ${host}`, error);
  }
  if (found.length === 0) throw new GuardedHttpError('http_network', `could not resolve the host ${host}`);
  const byName = allow.allowsName(host);
  for (const { address } of found) {
    if (!byName && isNonPublicAddress(address) && !allow.allowsAddress(address)) throw refused(url, address);
  }
  const first = found[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** The code a refused address fails with, for callers that see it as another error's cause (guardedFetch). */
export const FORBIDDEN_ADDRESS = 'http_forbidden_address';

const refused = (url: URL, address: string) =>
  new GuardedHttpError(
    'http_forbidden_address',
    `requests to ${url.hostname} (${address}) are refused: it is not a public address; an operator may allow it with KBQA_WORKFLOW_HTTP_ALLOW_HOSTS`,
  );

/** A `lookup` for node:http that answers with the checked address only, in either calling convention (single or all). */
export function pinnedLookup(target: CheckedTarget) {
  return (_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}
