import type { KnownFailure } from '../helpers/known-failures.ts';

/**
 * The cases of the MongoDB adapters' suites that fail on FerretDB v1.24.2 (SQLite backend), each
 * with the MongoDB feature FerretDB lacks and the error that shows it. The adapters are right for
 * MongoDB and stay as they are: docs/ferretdb.md has the details and the portable alternatives.
 */

/** Read models and checkpoints guard every write by position in an update pipeline (`[{ $set: … $cond … $max … }]`, MongoDB 4.2+). */
const updatePipeline: KnownFailure = {
  reason: 'no update with an aggregation pipeline',
  symptom: /'update\.updates\.u' is the wrong type 'array', expected type 'object'/,
};

/**
 * The bus saves each checkpoint with the same pipeline update; the save fails, the bus retries it
 * without end, and the group never reaches the position the case waits for.
 */
const checkpointPipeline: KnownFailure = {
  reason: 'no update with an aggregation pipeline (checkpoints)',
  symptom: /consumer group \S+ did not reach position \d+ within 5000 ms/,
};

/** The same, in a case whose cleanup then waits for a handler the failed case never released. */
const checkpointPipelineHangs: KnownFailure = { reason: 'no update with an aggregation pipeline (checkpoints)', hangs: true };

/** The keyword index finds candidates with a text index, `$text` and `{ $meta: 'textScore' }`; the index is created first and fails. */
const textIndex: KnownFailure = {
  reason: 'no text indexes or $text',
  symptom: /can't find index with key: \{ terms: "text" \}/,
};

/** `$project: { entity: '$_id' }` gives the string "$_id" back: field paths in $project are not evaluated (a wrong answer, not an error). */
const projectFieldPath: KnownFailure = {
  reason: '$project returns a field path as a literal string',
  symptom: /entity: '\$_id'/,
};

const cases = (prefix: string, failure: KnownFailure, titles: string[]) => titles.map((title): [string, KnownFailure] => [`${prefix} › ${title}`, failure]);

export const FERRETDB_KNOWN_FAILURES: ReadonlyMap<string, KnownFailure> = new Map([
  ...cases('ferretdb', updatePipeline, [
    'put, get and getVersioned',
    'getMany reads several documents in one call; missing and deleted ones are absent',
    'add creates a document at zero and adds to its fields, in the same commit as other writes',
    'a write from an older or the same position changes nothing (replay is a no-op)',
    'a delete leaves a tombstone that older writes cannot resurrect',
    'find filters by fields (strings, booleans, null) and pages by id both ways',
    'writes and checkpoint land together, or neither does',
    'drop forgets the collections and the named checkpoints only',
    'checkpoints only move forward',
    'positions past 2^53 are kept exactly, and still guard',
  ]),
  ...cases('in-process bus with ferretdb checkpoints', checkpointPipeline, [
    'a group receives every event in log order and checkpoints after it',
    'a restarted group resumes after its checkpoint',
    'a failing handler is retried and the checkpoint waits for its success',
    'a poison event is parked, reported, and the rest still flows',
    'a group sees only the event types it asked for',
  ]),
  ...cases('in-process bus with ferretdb checkpoints', checkpointPipelineHangs, ['groups are independent: a slow one does not hold back another']),
  ...cases('ferretdb keyword', textIndex, [
    'ranks by BM25 with stemming, and ignores query operators',
    'scores are in 0..1 and say how much of the query a chunk covers',
    'hostile queries never throw',
    'namespaces are isolated; filter, replace and delete',
    'termStats: the query’s distinct terms with their document frequencies',
    'a pinned language analyses chunks and queries alike',
    'a fresh index has nothing stale',
  ]),
  ...cases('ferretdb graph', projectFieldPath, [
    'neighbours by shared chunks; chunks by weighted entities',
    're-upserting a chunk replaces its mentions; deletes',
  ]),
]);
