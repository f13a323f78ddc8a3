import { PROJECTOR_GROUP } from '../app/projector.ts';
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
