import test from 'ava';
import { type Db, MongoClient } from 'mongodb';
import { randomUUID } from 'node:crypto';
import { createMongoEntityGraph } from '../../src/adapters/mongo/entity-graph.ts';
import { createMongoKeywordIndex } from '../../src/adapters/mongo/keyword-index.ts';
import { createMongoPassageStore } from '../../src/adapters/mongo/passage-store.ts';
import { withService } from '../helpers/services.ts';
import { testPassageStore } from './suites/passage-store.suite.ts';
import { testEntityGraph, testKeywordIndex } from './suites/search-indexes.suite.ts';
import { analyzer } from '../helpers/analyzer.ts';

withService(test, 'mongo keyword index, entity graph and passages', ['MONGODB_URL'], ({ MONGODB_URL }) => {
  // Each fixture gets a database of its own, dropped afterwards, so tests never see each other's indexes.
  const mongo = <T>(make: (db: Db) => T) => async () => {
    const client = new MongoClient(MONGODB_URL!);
    const db = client.db(`kbqa_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`);
    return {
      index: make(db),
      cleanup: async () => {
        try {
          await db.dropDatabase();
        } finally {
          await client.close();
        }
      },
    };
  };
  testKeywordIndex(test, 'mongo keyword', mongo((db) => createMongoKeywordIndex(db, { analyzer })));
  testEntityGraph(test, 'mongo graph', mongo(createMongoEntityGraph));
  testPassageStore(test, 'mongo passages', mongo(createMongoPassageStore));
});
