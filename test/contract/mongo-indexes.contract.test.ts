import test from 'ava';
import { withService } from '../helpers/services.ts';
import { testMongoWireIndexes } from './mongo-wire/indexes.ts';

withService(test, 'mongo keyword index, entity graph and passages', ['MONGODB_URL'], ({ MONGODB_URL }) =>
  testMongoWireIndexes(test, MONGODB_URL!, { keyword: 'mongo keyword', graph: 'mongo graph', passages: 'mongo passages' }),
);
