import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { type Answer, CONSOLE_HEADER, failureOf, onSessionExpired } from '../api/client.ts';

export type Session = Answer<'/console/session', 'get'>;
type Scope = Session['scopes'][number];
const RANK: Record<Scope, number> = { read: 0, write: 1, admin: 2 };

type SessionState = {
  /** undefined while the first check runs; null when signed out. */
  session: Session | null | undefined;
  signIn(apiKey: string): Promise<void>;
  signOut(): Promise<void>;
};

const SessionContext = createContext<SessionState | null>(null);

const sessionPath = '/console/session';

async function readSession(): Promise<Session | null> {
  const response = await fetch(sessionPath, { headers: CONSOLE_HEADER, credentials: 'same-origin' });
  if (response.status === 401) return null;
  if (!response.ok) throw await failureOf(response);
  return (await response.json()) as Session;
}

/**
 * Who the console is signed in as (GET /console/session). The API key goes to the server once, at
 * sign-in, and comes back sealed in an HttpOnly cookie: no script here ever holds it again.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null | undefined>(undefined);

  useEffect(() => {
    readSession().then(setSession, () => setSession(null));
    const stop = onSessionExpired(() => setSession(null));
    return () => void stop();
  }, []);

  const signIn = useCallback(async (apiKey: string) => {
    const response = await fetch(sessionPath, { method: 'POST', headers: { ...CONSOLE_HEADER, 'content-type': 'application/json' }, credentials: 'same-origin', body: JSON.stringify({ api_key: apiKey }) });
    if (!response.ok) throw await failureOf(response);
    setSession(await readSession());
  }, []);

  const signOut = useCallback(async () => {
    await fetch(sessionPath, { method: 'DELETE', headers: CONSOLE_HEADER, credentials: 'same-origin' });
    setSession(null);
  }, []);

  return <SessionContext.Provider value={{ session, signIn, signOut }}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/**
 * Whether the signed-in key has a scope (admin ⊇ write ⊇ read): screens show write controls only
 * when `useCan('write')`, so a read key sees the data and no button that would be refused.
 */
export function useCan(scope: Scope): boolean {
  const { session } = useSession();
  return !!session && session.scopes.some((s) => RANK[s] >= RANK[scope]);
}
