import { open, seal } from '../../lib/aes-gcm.ts';
import type { Authenticator } from './api-keys.ts';
import type { Principal } from './principal.ts';
import { unauthenticated } from '../errors.ts';

/** Fixed, not sliding: a cookie copied off a machine is good for half a day at most, however it is used. */
export const CONSOLE_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** Bound into every sealed session: a value sealed for another purpose under the same key does not open as one. */
const CONTEXT = 'kbqa console session v1';
const PREFIX = 'v1.';

export type ConsoleSession = { principal: Principal; expiresAt: Date };
type Sealed = { k: string; exp: number };

/**
 * The console's sessions, stateless: the cookie holds the API key sealed with AES-256-GCM under a
 * key derived from the deployment's master key (nothing in the clear, and a changed byte does not
 * open), with its expiry. Every request opens it and authenticates the key as a bearer key is
 * (the authenticator's cache, which a revocation empties at once), so a revoked or expired key's
 * session stops with it. Any API process holding the master key reads any session.
 */
export function createConsoleSessions({ authenticator, key, now }: { authenticator: Authenticator; key: Buffer; now: () => Date }) {
  const invalid = () => unauthenticated('invalid_console_session', 'The console session is not valid; sign in again.');

  return {
    /** Checks the key; its sealed session, for the cookie. */
    async signIn(apiKey: string): Promise<ConsoleSession & { token: string }> {
      const principal = await authenticator.authenticate(apiKey);
      const expiresAt = new Date(now().getTime() + CONSOLE_SESSION_TTL_MS);
      const sealed: Sealed = { k: apiKey, exp: expiresAt.getTime() };
      const token = PREFIX + seal(key, Buffer.from(JSON.stringify(sealed), 'utf8'), CONTEXT).toString('base64url');
      return { principal, expiresAt, token };
    },

    /** The session a cookie holds, if it opens, has not expired, and its key is still valid. */
    async resume(token: string): Promise<ConsoleSession> {
      if (!token.startsWith(PREFIX)) throw invalid();
      let sealed: Sealed;
      try {
        sealed = JSON.parse(open(key, Buffer.from(token.slice(PREFIX.length), 'base64url'), CONTEXT).toString('utf8')) as Sealed;
      } catch {
        throw invalid();
      }
      if (typeof sealed.k !== 'string' || typeof sealed.exp !== 'number') throw invalid();
      if (sealed.exp <= now().getTime()) throw unauthenticated('console_session_expired', 'The console session has expired; sign in again.');
      return { principal: await authenticator.authenticate(sealed.k), expiresAt: new Date(sealed.exp) };
    },
  };
}

export type ConsoleSessions = ReturnType<typeof createConsoleSessions>;
