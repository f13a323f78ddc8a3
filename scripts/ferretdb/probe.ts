/**
 * `node --import tsx scripts/ferretdb/probe.ts <mongodb-url>`: tries, one call each, the MongoDB
 * features our adapters use (and two they do not), in a scratch database it drops afterwards, and
 * prints `ok` or `FAIL` with the server's answer. A contract case stops at its first failure; this
 * shows what lies behind it. docs/ferretdb.md has FerretDB's answers.
 */
import { type Document, Long, MongoClient } from 'mongodb';

const url = process.argv[2];
if (!url) throw new Error('usage: node --import tsx scripts/ferretdb/probe.ts <mongodb-url>');
const client = new MongoClient(url);
await client.connect();
const db = client.db(`kbqa_probe_${Date.now()}`);
/** Ids are strings here, so the probes can name their documents. */
const c = db.collection<{ _id: string } & Document>('probe');
await c.insertMany([
  { _id: 't', ns: 'x', t: 'hello world' },
  { _id: 'g', e: ['a', 'b'] },
]);

/** A path such as `'$_id'` must come back evaluated: a server that echoes it gives wrong answers without an error. */
async function evaluated(rows: Promise<Document[]>): Promise<Document[]> {
  const found = await rows;
  if (JSON.stringify(found).includes('"$_id')) throw new Error(`answered with the field path as a literal string: ${JSON.stringify(found)}`);
  return found;
}

const probes: [string, () => Promise<unknown>][] = [
  ['update with a pipeline', () => c.updateOne({ _id: 'p' }, [{ $set: { position: { $max: ['$position', Long.fromBigInt(5n)] } } }], { upsert: true })],
  ['$max update operator', async () => {
    await c.updateOne({ _id: 'm' }, { $max: { position: Long.fromBigInt(5n) } }, { upsert: true });
    await c.updateOne({ _id: 'm' }, { $max: { position: Long.fromBigInt(3n) } }, { upsert: true });
    return c.findOne({ _id: 'm' });
  }],
  ['Int64 past 2^53', async () => {
    await c.insertOne({ _id: 'l', p: Long.fromBigInt(2n ** 60n + 1n) });
    return String((await c.findOne({ _id: 'l' }, { promoteLongs: false }))?.p);
  }],
  ['text index', () => c.createIndex({ ns: 1, t: 'text' }, { default_language: 'none' })],
  ['$text query', () => c.find({ $text: { $search: 'hello' } }).toArray()],
  ['$meta textScore sort', () => c.aggregate([{ $match: { ns: 'x' } }, { $sort: { score: { $meta: 'textScore' } } }]).toArray()],
  ['$project field path', () => evaluated(c.aggregate([{ $match: { _id: 'g' } }, { $project: { _id: 0, x: '$_id' } }]).toArray())],
  ['$project nested field path', () => evaluated(c.aggregate([{ $match: { _id: 'g' } }, { $group: { _id: { k: '$_id' } } }, { $project: { _id: 0, k: '$_id.k' } }]).toArray())],
  ['$unwind, $group, $sort, $count', () => c.aggregate([{ $match: { _id: 'g' } }, { $unwind: '$e' }, { $group: { _id: '$e', n: { $sum: 1 } } }, { $sort: { n: -1, _id: 1 } }, { $count: 'n' }]).toArray()],
  ['findOneAndReplace with a projection', () => c.findOneAndReplace({ _id: 'r' }, { v: 3 }, { upsert: true, returnDocument: 'before', projection: { _id: 0, v: 1 } })],
  ['aggregate with allowDiskUse', () => c.aggregate([{ $match: { _id: 'g' } }], { allowDiskUse: true }).toArray()],
  ['transaction', () => client.withSession((s) => s.withTransaction(() => c.insertOne({ _id: 'x1' }, { session: s })))],
  ['change stream (unused by KBQA)', async () => {
    const stream = c.watch();
    try {
      return await stream.tryNext();
    } finally {
      await stream.close();
    }
  }],
  ['hello names a replica set', async () => (await db.admin().command({ hello: 1 })).setName ?? 'no (a standalone)'],
];

try {
  for (const [name, run] of probes) {
    try {
      console.log(`ok   ${name}: ${JSON.stringify(await run())?.slice(0, 160)}`);
    } catch (error) {
      console.log(`FAIL ${name}: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
    }
  }
} finally {
  await db.dropDatabase();
  await client.close();
}
