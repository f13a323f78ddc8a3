import test, { type ImplementationFn } from 'ava';
import { createEsdbEventStore } from '../../src/adapters/esdb/event-store.ts';
import { withService } from '../helpers/services.ts';
import { testEventStore } from './suites/event-store.suite.ts';

// Every case shares the server's one $all log. Run concurrently, another case may append between
// two appends of 'pages from a position', whose page of two after B must be C then D; one case at
// a time, only writers outside this file can interleave.
const oneAtATime = Object.assign((title: string, body: ImplementationFn<[]>) => test.serial(title, body), test);

withService(test, 'eventstoredb › event store contract', ['EVENTSTORE_URL'], ({ EVENTSTORE_URL }) => {
  testEventStore(oneAtATime, 'eventstoredb', async () => {
    const store = createEsdbEventStore({ connectionString: EVENTSTORE_URL! });
    return { store, cleanup: () => store.close() };
  });
});
