import type { ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { type AnyDomainEvent, eventCatalog, parseEventData } from '../../schemas/events/index.ts';
import type { CallOptions, Reply } from './call.ts';
import { type SpecApp, type SpecAppOptions, startSpecApp } from './spec-app.ts';

/**
 * A past event, of a catalog type and on its schema. Its stream is `<category>-<id>` (as the
 * deciders name theirs: `knowledge_base-kb_1` for a knowledge base created with id kb_1) unless
 * `streamId` names another.
 */
export type GivenEvent = AnyDomainEvent & { streamId?: string };

/** A request: the admin key unless `key` says otherwise (null: none). */
export type SpecRequest = { method: string; path: string } & CallOptions;

/** An event the request appended, as the log holds it. */
export type NewEvent = { type: string; data: any };

/** The response, and the events the request appended (after the log's head before it). */
export type Outcome = Reply & { events: NewEvent[] };

export type Expected = {
  status: number;
  /** The whole body, deep-equal. */
  body?: unknown;
  /** Some of the body: t.like, so fields left out (ids, times) are not compared. */
  bodyMatches?: Record<string, unknown>;
  /** Response headers that must have these values. */
  headers?: Record<string, string>;
  /** Exactly these events, type and data, in order ([]: nothing written). */
  events?: NewEvent[];
  /** These event types in order, each event's data like the one given (t.like). */
  eventsMatch?: NewEvent[];
};

export type Exchange = {
  /** Sends the request and checks the response and the new events; resolves to them for any further check. */
  then(expected: Expected): Promise<Outcome>;
  /** Sends the request and checks nothing: the response and the new events, for checks of one's own. */
  response(): Promise<Outcome>;
};

export type HttpSpec = {
  /** when: a request after these events; app: the app once they are projected, for a test of several steps. */
  given(...events: GivenEvent[]): { when(request: SpecRequest): Exchange; app(): Promise<SpecApp> };
  when(request: SpecRequest): Exchange;
  /** The app itself (started on first use, closed when the test ends), for a test of several steps. */
  app(): Promise<SpecApp>;
};

/**
 * given(past events) → when(a request) → then(the response and the new events), over the API's
 * app on in-memory ports (spec-app.ts), one app per test. The given events are appended to the
 * log as the command shell would append them and projected by the real projector before the
 * request, so the request meets the read models they make. The admin key (ADMIN_KEY) and the
 * `default` workspace exist already; their events come before the given ones and are never "new".
 *
 *   await httpSpec(t)
 *     .given(knowledgeBaseCreated({ id: 'kb_1', name: 'Manuals' }))
 *     .when({ method: 'DELETE', path: '/v1/knowledge-bases/kb_1' })
 *     .then({ status: 200, eventsMatch: [{ type: 'KnowledgeBaseDeleted', data: { knowledge_base_id: 'kb_1' } }] });
 */
export function httpSpec(t: ExecutionContext, options: SpecAppOptions = {}): HttpSpec {
  let started: Promise<SpecApp> | null = null;
  const app = () => {
    if (!started) {
      started = startSpecApp(options);
      t.teardown(async () => (await started!).close());
    }
    return started;
  };
  const exchange = (past: GivenEvent[], request: SpecRequest): Exchange => {
    const run = async (): Promise<Outcome> => {
      const spec = await app();
      await append(spec, past);
      const before = await spec.head();
      const { method, path, ...callOptions } = request;
      const reply = await spec.call(method, path, callOptions);
      const events = (await spec.ctx.store.readAll({ from: before })).map(({ type, data }) => ({ type, data }));
      return { ...reply, events };
    };
    return {
      then: (expected) => {
        // `await spec.when(…)` calls then() with the promise's resolver: thrown at once, that rejects the await with the reason.
        if (typeof expected !== 'object' || expected === null) throw new TypeError('call .then({ status, … }) or .response() on an exchange; do not await it');
        return run().then(async (outcome) => {
          check(t, outcome, expected, (await app()).serverErrors);
          return outcome;
        });
      },
      response: run,
    };
  };
  return {
    given: (...past) => ({
      when: (request) => exchange(past, request),
      app: async () => {
        const spec = await app();
        await append(spec, past);
        return spec;
      },
    }),
    when: (request) => exchange([], request),
    app,
  };
}

/** Appends each event on its schema, then waits until the projector has applied them all. */
async function append(spec: SpecApp, past: readonly GivenEvent[]) {
  const written = [];
  for (const event of past) {
    const streamId = event.streamId ?? streamOf(event);
    const data = parseEventData(event.type, event.data);
    const { lastPosition } = await spec.ctx.store.append(streamId, [{ id: randomUUID(), type: event.type, data, metadata: { schemaVersion: eventCatalog[event.type].version } }], 'any');
    written.push({ streamId, position: lastPosition });
  }
  await spec.ctx.projections.waitFor(written, spec.ctx.consistencyTimeoutMs);
}

function streamOf(event: GivenEvent): string {
  const { category } = eventCatalog[event.type];
  const id = (event.data as Record<string, unknown>)[`${category}_id`];
  if (typeof id !== 'string') throw new Error(`given ${event.type}: no ${category}_id in its data to name its stream; give streamId`);
  return `${category}-${id}`;
}

function check(t: ExecutionContext, outcome: Outcome, expected: Expected, serverErrors: readonly unknown[]) {
  if (expected.status < 500 && serverErrors.length > 0) t.fail(`the server failed: ${String((serverErrors[0] as Error).stack ?? serverErrors[0])}`);
  t.is(outcome.status, expected.status, `status (body: ${JSON.stringify(outcome.body)})`);
  if ('body' in expected) t.deepEqual(outcome.body, expected.body);
  if (expected.bodyMatches) t.like(outcome.body, expected.bodyMatches);
  for (const [name, value] of Object.entries(expected.headers ?? {})) t.is(outcome.headers.get(name), value, `header ${name}`);
  if (expected.events) t.deepEqual(outcome.events, expected.events);
  if (expected.eventsMatch) {
    t.deepEqual(outcome.events.map((e) => e.type), expected.eventsMatch.map((e) => e.type), 'new event types');
    expected.eventsMatch.forEach((e, i) => outcome.events[i] && t.like(outcome.events[i]!.data, e.data, `event ${i} (${e.type})`));
  }
}
