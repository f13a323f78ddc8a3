import { type Db, type Document, MongoClient } from 'mongodb';

export type MongoConnection = { client: MongoClient; db: Db; supportsTransactions: boolean; close(): Promise<void> };

const DEFAULT_DATABASE = 'kbqa';

/**
 * The database named in the connection string's path, `kbqa` when it names none. Parsed by hand
 * because a replica-set URL lists several hosts (`h1:27017,h2:27017`), which `new URL` rejects, and
 * the driver reports `test` both when the path says so and when it is empty.
 */
export function databaseNameOf(url: string): string {
  const path = /^[a-z0-9+.-]+:\/\/[^/?]*\/([^?]*)/i.exec(url)?.[1];
  return path ? decodeURIComponent(path) : DEFAULT_DATABASE;
}

/** Multi-document transactions need a replica set member or a mongos; a standalone server has neither. */
export function transactionsSupported(hello: Document): boolean {
  return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
}

export async function connectMongo(url: string): Promise<MongoConnection> {
  const client = new MongoClient(url);
  await client.connect();
  try {
    const hello = await client.db('admin').command({ hello: 1 });
    return {
      client,
      db: client.db(databaseNameOf(url)),
      supportsTransactions: transactionsSupported(hello),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}
