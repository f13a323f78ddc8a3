import type { z } from 'zod';
import type { Projection } from '../../projections/projection.ts';
import type { EventType } from '../../schemas/events/index.ts';
import type { LiveFeed } from '../app/live-feed.ts';
import type { Services } from '../composition/services.ts';
import type { BodyPace } from '../http/body.ts';
import type { LoadShedder } from '../http/load-shedding.ts';
import type { AuthFailureLimiter } from '../http/auth-failures.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import type { RouteSpec } from '../http/route.ts';
import type { BlobStore } from '../ports/blob-store.ts';
import type { Logger } from 'pino';
import type { ConsumerGroup } from '../ports/event-bus.ts';
import type { ChatModel, Embedder } from '../ports/models.ts';
import type { DocumentParser, ParseLimits } from '../ports/document-parser.ts';
import type { ParseLane } from '../domain/document/parse-lane.ts';
import type { MediaTypeDetector } from '../ports/media-type-detector.ts';
import type { SearchIndexes } from '../app/retrieval/retrieval.ts';
import type { ConsoleBuild } from '../http/console/build-output.ts';

/** What routes are built from besides the services: the HTTP settings that config.ts decides. */
export type RouteSettings = {
  blobs: BlobStore;
  /** What an upload's bytes are (the parsers' detection, chosen by the composition root). */
  detectMediaType: MediaTypeDetector;
  feed: LiveFeed;
  maxUploadBytes: number;
  maxFilesPerUpload: number;
  /** How fast a request's body must arrive (body.ts). */
  bodyPace: BodyPace;
  /** How long a blocking workflow run is waited for before it answers 202. */
  workflowBlockingWaitMs: number;
  loadShedder: LoadShedder;
  /** The console's built files (dist/console), or null when this installation has none. */
  console: ConsoleBuild;
  /** Sign-ins to the console per client address (KBQA_CONSOLE_SIGNINS_PER_MINUTE). */
  consoleSignIns: RateLimiter;
  /** Wrong API keys per client address and key prefix, shared with the bearer check (KBQA_AUTH_FAILURES_PER_MINUTE). */
  authFailures: AuthFailureLimiter;
  version: string;
  /** The landing pages' limits and the key their visitor cookies are signed with (derived from the deployment's master key). */
  landing: { messagesPerMinutePerIp: number; cookieKey: Buffer };
  /** Hears failures past a response's start (mid-stream), with the request's id. */
  onServerError(error: unknown, requestId: string): void;
};

export type ApiDeps = { services: Services; settings: RouteSettings };

/** What a worker process's consumers are built from. */
export type WorkerDeps = {
  services: Services;
  blobs: BlobStore;
  feed: LiveFeed;
  /** A parser per lane (domain/document/parse-lane.ts), each with processes of its own: small files never wait for a large file's process. */
  parsers: Record<ParseLane, DocumentParser>;
  detectMediaType: MediaTypeDetector;
  limits: ParseLimits;
  maxUploadBytes: number;
  parseTimeoutMs: number;
  /** Large files parsed at once (KBQA_PARSER_THREADS); the small lane parses SMALL_LANE_PARSES at once. */
  parseConcurrency: number;
  embedders: ReadonlyMap<string, Embedder>;
  chatModels: ReadonlyMap<string, ChatModel>;
  indexes: SearchIndexes;
  logger: Logger;
  /** Workflow runs at once, in all and per workspace, and held ahead (KBQA_WORKFLOW_CONCURRENCY and the rest). */
  workflowRuns: { concurrency: number; perWorkspace: number; held: number };
  /** Hears each document this process parsed (kbqa_documents_parsed_total). */
  onParsed?: (lane: ParseLane) => void;
};

/**
 * A capability, whole: what a newcomer adds to add a resource, and what the composition root
 * composes (src/capabilities/index.ts holds the one list). Its parts stay in the layer each
 * belongs to (docs/architecture.md); the descriptor names them, so that a capability is found by
 * its name in every tier: `src/capabilities/<name>.ts`, `test/http/access-matrix/<name>.ts` (its
 * access recipes, which the matrix requires), and the console's screens.
 */
export type Capability = {
  name: string;
  /** One line: what it is for. */
  summary: string;
  /** Its event schemas, by type (schemas/events; the catalog there types the log). */
  events?: Readonly<Record<string, z.ZodType>>;
  /** Its pure deciders (src/domain), for the reader: the services that use them are built from `services`. */
  deciders?: readonly { streamId(id: string): string }[];
  /** The read models it keeps. */
  projections?: readonly Projection[];
  /** Its consumer groups, by name, for the processes that run workers. */
  consumers?(deps: WorkerDeps): Record<string, ConsumerGroup>;
  /** Its HTTP routes, built from the services and settings given. */
  routes?(deps: ApiDeps): RouteSpec[];
};

export const defineCapability = (capability: Capability): Capability => capability;

/** The event types a capability's schemas declare. */
export const eventTypesOf = (capability: Capability): EventType[] => Object.keys(capability.events ?? {}) as EventType[];
