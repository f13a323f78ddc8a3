import { secretEvents } from '../../schemas/events/secret.ts';
import { secretsProjection } from '../../projections/secrets/index.ts';
import { secretDecider } from '../domain/secret/secret.ts';
import { secretRoutes } from '../http/routes/secrets.ts';
import { defineCapability } from './capability.ts';

export const secrets = defineCapability({
  name: 'secrets',
  summary: 'A workspace’s named secrets, kept encrypted and never shown again.',
  events: secretEvents,
  deciders: [secretDecider],
  projections: [secretsProjection],
  routes: ({ services }) => secretRoutes(services.secrets),
});
