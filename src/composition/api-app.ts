import type { Logger } from 'pino';
import type { Authenticator } from '../app/services/api-keys.ts';
import type { LiveFeed } from '../app/live-feed.ts';
import { apiRoutes } from '../capabilities/index.ts';
import type { RouteSettings } from '../capabilities/capability.ts';
import type { Config } from '../config.ts';
import { createApp } from '../http/app.ts';
import { createAuthFailureLimiter } from '../http/auth-failures.ts';
import { readConsoleBuild } from '../http/console/build-output.ts';
import { consolePageFor } from '../http/console/routes.ts';
import type { LoadShedder } from '../http/load-shedding.ts';
import type { Metrics } from '../http/metrics.ts';
import { createRateLimiter } from '../http/rate-limit.ts';
import type { ReadinessCheck } from '../http/routes/operations.ts';
import { detectMediaType } from '../parsing/detect.ts';
import type { BlobStore } from '../ports/blob-store.ts';
import type { Services } from './services.ts';

export type ApiAppParts = {
  services: Services;
  authenticator: Authenticator;
  blobs: BlobStore;
  feed: LiveFeed;
  loadShedder: LoadShedder;
  metrics: Metrics;
  readiness: ReadinessCheck;
  version: string;
  /** The key the landing pages' visitor cookies are signed with (derived from the deployment's master key). */
  landingCookieKey: Buffer;
  onServerError(error: unknown, requestId: string): void;
  logger?: Logger;
};

/**
 * The API's Koa app from the configuration and the runtime's parts: the one place that turns
 * config into route settings, so the server (src/main.ts) and the tests' in-memory app
 * (test/helpers/spec-app.ts) cannot drift apart.
 */
export function composeApiApp(config: Config, parts: ApiAppParts) {
  const consoleBuild = readConsoleBuild();
  const authFailures = createAuthFailureLimiter(config.authFailuresPerMinute);
  const settings: RouteSettings = {
    blobs: parts.blobs,
    detectMediaType,
    feed: parts.feed,
    maxUploadBytes: config.ingestion.maxUploadBytes,
    maxFilesPerUpload: config.ingestion.maxFilesPerUpload,
    bodyPace: config.server.body,
    workflowBlockingWaitMs: config.workflowBlockingWaitMs,
    loadShedder: parts.loadShedder,
    console: consoleBuild,
    consoleSignIns: createRateLimiter(config.consoleSignInsPerMinute),
    authFailures,
    version: parts.version,
    landing: { messagesPerMinutePerIp: config.landingMessagesPerMinute, cookieKey: parts.landingCookieKey },
    onServerError: parts.onServerError,
  };
  return createApp({
    routes: apiRoutes({ services: parts.services, settings }),
    authenticator: parts.authenticator,
    consoleSessions: parts.services.consoleSessions,
    metrics: parts.metrics,
    rateLimiter: createRateLimiter(config.rateLimitPerMinute),
    authFailures,
    maxJsonBytes: config.maxJsonBytes,
    bodyPace: config.server.body,
    loadShedder: parts.loadShedder,
    version: parts.version,
    readiness: parts.readiness,
    onServerError: parts.onServerError,
    ...(parts.logger && { logger: parts.logger }),
    corsOrigins: config.corsOrigins,
    pageFallback: consolePageFor(consoleBuild),
  });
}
