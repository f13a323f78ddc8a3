import type { TestFn } from 'ava';
import { type Db, MongoClient } from 'mongodb';
import { randomUUID } from 'node:crypto';
import { createMongoEntityGraph } from '../../../src/adapters/mongo/entity-graph.ts';
import { createMongoKeywordIndex } from '../../../src/adapters/mongo/keyword-index.ts';
import { createMongoPassageStore } from '../../../src/adapters/mongo/passage-store.ts';
import { analyzer } from '../../helpers/analyzer.ts';
import { testPassageStore } from '../suites/passage-store.suite.ts';
import { testEntityGraph, testKeywordIndex } from '../suites/search-indexes.suite.ts';

/** How a server's tests are titled: MongoDB's as they always were, FerretDB's by its own name. */
export type IndexTitles = { keyword: string; graph: string; passages: string };

/** The keyword index, entity graph and passage suites against the server at `url` (anything that speaks MongoDB's wire protocol). */
export function testMongoWireIndexes(test: TestFn, url: string, names: IndexTitles) {
  // Each fixture gets a database of its own, dropped afterwards, so tests never see each other's indexes.
  const mongo = <T>(make: (db: Db) => T) => async () => {
    const client = new MongoClient(url);
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
  testKeywordIndex(test, names.keyword, mongo((db) => createMongoKeywordIndex(db, { analyzer })));
  testEntityGraph(test, names.graph, mongo(createMongoEntityGraph));
  testPassageStore(test, names.passages, mongo(createMongoPassageStore));
}
