import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import type { EntityGraph, EntityNeighbour } from '../../ports/entity-graph.ts';
import {
  entityCountPipeline,
  type GraphMentionDoc,
  type Mention,
  mentionCountPipeline,
  mentionDoc,
  mentionsPipeline,
  neighboursPipeline,
  scoreMentions,
} from './graph-pipelines.ts';
import { lazyIndexes } from './lazy-indexes.ts';

/**
 * One document per chunk with the entities it mentions; co-occurrence is counted by aggregation
 * when asked, with the embedded graph's sample sizes and caps (graph-pipelines.ts), so both
 * answer alike. The entity index ends with the chunk id so that "an entity's first chunks by id"
 * is a bounded index range, not a sort of all its mentions.
 */
export function createMongoEntityGraph(db: Db): EntityGraph {
  const mentions = db.collection<GraphMentionDoc>('graph_mentions');
  const ready = lazyIndexes([
    mentions,
    [
      { key: { namespace: 1, chunkId: 1 }, name: 'namespace_chunk', unique: true },
      { key: { namespace: 1, entities: 1, chunkId: 1 }, name: 'namespace_entities_chunk' },
      { key: { namespace: 1, documentId: 1 }, name: 'namespace_document' },
    ],
  ]);

  const countOf = async (pipeline: Document[]) => (await mentions.aggregate<{ n: number }>(pipeline, { allowDiskUse: true }).toArray())[0]?.n ?? 0;

  return {
    async upsert(namespace, batch) {
      if (batch.length === 0) return;
      await ready();
      const writes = batch.map(
        (m): AnyBulkWriteOperation<GraphMentionDoc> => ({
          replaceOne: { filter: { namespace, chunkId: m.chunkId }, replacement: mentionDoc(namespace, m), upsert: true },
        }),
      );
      // Ordered, so a chunk given twice in one batch ends with its last mentions.
      await mentions.bulkWrite(writes, { ordered: true });
    },
    async deleteByDocument(namespace, documentId) {
      await ready();
      await mentions.deleteMany({ namespace, documentId });
    },
    async deleteChunks(namespace, chunkIds) {
      if (chunkIds.length === 0) return;
      await ready();
      await mentions.deleteMany({ namespace, chunkId: { $in: [...chunkIds] } });
    },
    async deleteNamespace(namespace) {
      await ready();
      await mentions.deleteMany({ namespace });
    },
    async neighbours(namespace, entity, limit) {
      const n = Math.floor(limit);
      if (n === 0) return [];
      await ready();
      const rows = await mentions.aggregate<EntityNeighbour>(neighboursPipeline(namespace, entity, n)).toArray();
      return rows.map((r) => ({ entity: r.entity, weight: r.weight }));
    },
    async chunksMentioning(namespace, entities, topK, filter) {
      if (filter?.documentIds?.length === 0 || entities.size === 0) return [];
      await ready();
      const perEntity = await Promise.all(
        [...entities].map(async ([entity, weight]) => ({
          weight,
          mentions: await mentions.aggregate<Mention>(mentionsPipeline(namespace, entity)).toArray(),
        })),
      );
      return scoreMentions(perEntity, topK, filter?.documentIds);
    },
    async mentionCounts(namespace, entities, cap = 10_000) {
      const limit = Math.floor(cap);
      const distinct = [...new Set(entities)];
      const counts = new Map<string, number>();
      if (limit === 0 || distinct.length === 0) return counts;
      await ready();
      const found = await Promise.all(distinct.map((entity) => countOf(mentionCountPipeline(namespace, entity, limit))));
      // In the order asked, as the embedded graph answers.
      distinct.forEach((entity, i) => {
        if (found[i]! > 0) counts.set(entity, found[i]!);
      });
      return counts;
    },
    async entityCount(namespace) {
      await ready();
      return countOf(entityCountPipeline(namespace));
    },
    async ping() {
      await db.command({ ping: 1 });
    },
  };
}
