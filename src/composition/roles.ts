import type { DistributedConfig } from '../config.ts';

/** What one process runs: everything (embedded or a single distributed node), or one part of it. */
export const ROLES = ['all', 'api', 'relay', 'worker', 'projector'] as const;
export type Role = (typeof ROLES)[number];

export type RoleParts = { api: boolean; relay: boolean; worker: boolean; projector: boolean };

export function partsOf(role: Role): RoleParts {
  const all = role === 'all';
  return { api: all || role === 'api', relay: all || role === 'relay', worker: all || role === 'worker', projector: all || role === 'projector' };
}

export function parseRole(value: string | undefined): Role {
  const role = value ?? 'all';
  if (!(ROLES as readonly string[]).includes(role)) throw new Error(`--role: '${role}' is not one of ${ROLES.join(', ')}`);
  return role as Role;
}

/** KAFKA_BROKERS set and no other engine: the embedded store, read models and indexes with a Kafka bus. */
export function isMixedProfile({ eventStore, kafka, mongo, pinecone }: DistributedConfig): boolean {
  return kafka !== null && !eventStore && !mongo && !pinecone;
}

/**
 * A role that runs apart from the others needs every port on a shared engine: an embedded
 * adapter lives in one process's data directory. The one exception is a worker of the mixed
 * profile: beside the server that owns the data directory, it takes a share of the parsing only
 * (composition/parse-worker.ts).
 */
export function checkRole(role: Role, distributed: DistributedConfig): void {
  if (role === 'all') return;
  if (role === 'worker' && isMixedProfile(distributed)) return;
  const missing = [
    !distributed.eventStore && 'EVENTSTORE_URL',
    !distributed.kafka && 'KAFKA_BROKERS',
    !distributed.mongo && 'MONGODB_URL',
    !distributed.pinecone && 'PINECONE_API_KEY and PINECONE_INDEX',
  ].filter(Boolean);
  if (missing.length === 0) return;
  const mixed = role === 'worker' && !distributed.eventStore && !distributed.mongo && !distributed.pinecone;
  if (mixed) {
    throw new Error(
      '--role worker needs KAFKA_BROKERS: with it, and the KBQA_DATA_DIR of a running kbqa server (the mixed profile), a worker takes a share of the parsing; ' +
        'with EVENTSTORE_URL, MONGODB_URL and PINECONE_API_KEY too, it is a worker of a distributed deployment',
    );
  }
  throw new Error(`--role ${role} runs one part of a distributed deployment and needs ${missing.join(', ')}; without them, run the whole service in one process (--role all, the default)`);
}
