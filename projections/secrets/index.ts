import type { SecretDoc } from '../../schemas/read-models/secrets.ts';
import { secretKey } from '../../src/domain/secret/secret.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { SecretDoc };

export const secretsProjection = defineProjection<SecretDoc>()({
  collection: 'secrets',
  eventTypes: ['SecretStored', 'SecretAllowedHostsChanged', 'SecretDeleted'],
  idsOf: (event) => [secretKey(event.data.workspace_id, event.data.name)],
  evolve(doc, event, id) {
    switch (event.type) {
      case 'SecretStored':
        return { id, ...event.data };
      case 'SecretAllowedHostsChanged':
        return doc && { ...doc, allowed_hosts: event.data.allowed_hosts };
      case 'SecretDeleted':
        return null;
      default:
        return assertNever(event);
    }
  },
});
