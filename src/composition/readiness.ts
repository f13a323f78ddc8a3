import type { Logger } from 'pino';
import { PROJECTOR_GROUP } from '../app/projector.ts';
import type { ProjectionWatch } from '../app/projection-watch.ts';
import { catchUp, startupTargets } from '../app/startup-catch-up.ts';
import type { GroupHandle } from '../ports/event-bus.ts';
import type { ReadinessCheck } from '../http/routes/operations.ts';
import type { Infrastructure, RelayHandle } from './infrastructure.ts';
import type { RoleParts } from './roles.ts';

export /** What /readyz checks: every port the role uses, and the progress of what it runs. */
function readinessChecks(opts: {
  parts: RoleParts;
  infra: Infrastructure;
  groups: ReadonlyMap<string, GroupHandle>;
  relay: () => RelayHandle | null;
  parser: { ping(): Promise<void> } | null;
  /** The API's start-up gate (startupGate): not ready until the read models caught up with the start. */
  startup: (() => Promise<void>) | null;
}): ReadinessCheck {
  const { parts, infra, groups, parser } = opts;
  const { store, readModels, blobs, indexes } = infra;
  const lagCheck = (name: string, position: () => bigint) => async () => {
    const lag = (await store.headPosition()) - position();
    if (lag > 10_000n) throw new Error(`${name} is ${lag} positions behind the log`);
  };
  const checks: ReadinessCheck = { event_store: () => store.ping(), read_models: () => readModels.ping() };
  if (parts.api || parts.worker) {
    Object.assign(checks, {
      blob_store: () => blobs.ping(),
      vector_index: () => indexes.vectors.ping(),
      keyword_index: () => indexes.keywords.ping(),
    });
  }
  if (parser) checks.parser = () => parser.ping();
  if (opts.startup) checks.caught_up = opts.startup;
  const projector = groups.get(PROJECTOR_GROUP);
  // A Kafka group's position is approximate across partitions: its lag is no readiness signal.
  if (projector && !infra.perStreamOrder) checks.projector = lagCheck('projector', () => projector.position());
  if (parts.relay && infra.startRelay) {
    checks.relay = async () => {
      const relay = opts.relay();
      if (!relay) throw new Error('relay not started');
      await lagCheck('relay', () => relay.position())();
    };
  }
  return checks;
}

/**
 * Ready means ready: /readyz holds back until the start has made its own writes (the bootstrap
 * admin key, after listening) and the read models show the log up to its head as of then, so the
 * first request after "ready" finds every key recorded before the start (app/startup-catch-up.ts).
 */
export function startupGate(opts: { store: Infrastructure['store']; projections: ProjectionWatch; perStreamOrder: boolean }) {
  let state: { phase: 'starting' } | { phase: 'catching_up'; head: bigint } | { phase: 'ready' } = { phase: 'starting' };
  let closed = false;
  return {
    /** The start's writes are made: from here, wait for the read models to show them. */
    async arm(): Promise<void> {
      if (state.phase !== 'starting') return;
      const head = await opts.store.headPosition();
      state = { phase: 'catching_up', head };
      const targets = await startupTargets(opts.store, opts.perStreamOrder);
      if (await catchUp(opts.projections, targets, () => closed)) state = { phase: 'ready' };
    },
    check: async () => {
      if (state.phase === 'starting') throw new Error('starting');
      if (state.phase === 'catching_up') throw new Error(`catching up: the read models have not yet applied the log up to position ${state.head}`);
    },
    async close() {
      closed = true;
    },
  };
}

/** The API's start-up gate: armed at once unless the caller makes start-up writes first. */
export function startupReadiness(api: boolean, gate: Parameters<typeof startupGate>[0], deferReady: boolean | undefined, logger: Logger) {
  const startup = api ? startupGate(gate) : null;
  const ready = () => void startup?.arm().catch((error: unknown) => logger.error({ err: error }, 'start-up catch-up failed'));
  if (!deferReady) ready();
  return { check: startup?.check ?? null, ready, close: async () => startup?.close() };
}
