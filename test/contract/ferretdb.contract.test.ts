import test from 'ava';
import { expectingKnownFailures } from '../helpers/known-failures.ts';
import { withService } from '../helpers/services.ts';
import { FERRETDB_KNOWN_FAILURES } from './ferretdb-known-failures.ts';
import { testMongoWireIndexes } from './mongo-wire/indexes.ts';
import { testMongoWireStores } from './mongo-wire/stores.ts';

/**
 * The MongoDB adapters' suites against FerretDB (`npm run ferretdb:up` prints the URL), which
 * speaks MongoDB's wire protocol but is not MongoDB: the cases it is known to fail, and why, are
 * listed in ferretdb-known-failures.ts and must fail as listed. Not run in CI (building FerretDB
 * takes minutes); docs/ferretdb.md has the results.
 */
withService(test, 'ferretdb read models, checkpoints, blobs, keyword index, entity graph and passages', ['FERRETDB_URL'], ({ FERRETDB_URL }) => {
  const known = expectingKnownFailures(test, 'FerretDB', FERRETDB_KNOWN_FAILURES);
  testMongoWireStores(known.test, FERRETDB_URL!, { store: 'ferretdb', gridfs: 'ferretdb gridfs', bus: 'in-process bus with ferretdb checkpoints' });
  testMongoWireIndexes(known.test, FERRETDB_URL!, { keyword: 'ferretdb keyword', graph: 'ferretdb graph', passages: 'ferretdb passages' });
  test('ferretdb › every known failure names a case of the suites', (t) => t.deepEqual(known.unlisted(), []));
});
