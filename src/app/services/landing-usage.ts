import { ApiError } from '../../ports/api-error.ts';

/** Seconds until the next UTC midnight, when a day's caps start again. */
export const secondsToUtcMidnight = (now: Date) => {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
};

/**
 * The landing pages' daily message counts, per agent and per visitor, by UTC day. Kept in process
 * memory: the embedded profile is one process, so its counts are exact; a deployment with several
 * API processes counts in each (a cap then holds per process, up to N times the cap in all). A
 * read-model counter would be exact everywhere but puts a write on every visitor message, and a
 * restart forgiving the day's count is an acceptable error for a cost cap (docs/agents.md).
 */
export function createLandingUsage(now: () => Date) {
  let day = '';
  const counts = new Map<string, number>();

  function today() {
    const d = now().toISOString().slice(0, 10);
    // A new day: yesterday's counts are dropped, so the map never holds more than a day of visitors.
    if (d !== day) (day = d), counts.clear();
  }

  return {
    /** Counts one message, or refuses it (429 with retry-after until UTC midnight) when a cap is reached. */
    take(agentId: string, visitorId: string, caps: { agent: number | null; visitor: number | null }) {
      today();
      const agentKey = agentId;
      const visitorKey = `${agentId}\u0000${visitorId}`;
      const refuse = (code: string, message: string) =>
        new ApiError(429, 'rate_limit_error', code, message, { headers: { 'retry-after': String(secondsToUtcMidnight(now())) } });
      if (caps.visitor !== null && (counts.get(visitorKey) ?? 0) >= caps.visitor) throw refuse('visitor_daily_cap_reached', 'You have sent as many messages as this assistant takes from one visitor today; come back tomorrow (UTC).');
      if (caps.agent !== null && (counts.get(agentKey) ?? 0) >= caps.agent) throw refuse('agent_daily_cap_reached', 'This assistant has answered as many messages as it takes today; come back tomorrow (UTC).');
      counts.set(visitorKey, (counts.get(visitorKey) ?? 0) + 1);
      counts.set(agentKey, (counts.get(agentKey) ?? 0) + 1);
    },
  };
}

export type LandingUsage = ReturnType<typeof createLandingUsage>;
