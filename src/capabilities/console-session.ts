import { consoleSessionRoutes } from '../http/routes/console-session.ts';
import { defineCapability } from './capability.ts';

export const consoleSession = defineCapability({
  name: 'console-session',
  summary: 'The console’s sign-in: an API key sealed into an HttpOnly session cookie that signs its /v1 requests.',
  routes: ({ services, settings }) => consoleSessionRoutes(services.consoleSessions, settings.consoleSignIns, settings.authFailures),
});
