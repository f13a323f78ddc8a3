import { consoleRoutes } from '../http/console/routes.ts';
import { defineCapability } from './capability.ts';

export const consoleApp = defineCapability({
  name: 'console',
  summary: 'The web console at `/`: a single-page app (web/console) over the public API, signed in through console-session.',
  routes: ({ settings }) => consoleRoutes(settings.console),
});
