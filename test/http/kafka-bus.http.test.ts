import test from 'ava';
import { withService } from '../helpers/services.ts';
import { startMixedProfileServer } from '../helpers/mixed-profile.ts';
import { sampleKnowledgeBase } from '../helpers/knowledge-base.ts';

/**
 * The mixed profile against a real broker: the embedded log, read models and indexes, with
 * KAFKA_BROKERS set and nothing else, so the relay publishes to the contract's topics and the
 * parser, indexer, runner and projector consume them as Kafka consumer groups.
 */
withService(test, 'mixed profile (embedded store, Kafka bus)', ['KAFKA_BROKERS'], (env) => {
  test('uploads reach ready through the Kafka bus, and a search finds them', async (t) => {
    t.timeout(180_000);
    const server = await startMixedProfileServer(env.KAFKA_BROKERS!, { KAFKA_TOPIC_PARTITIONS: '3' });
    try {
      const { kbId, docs } = await sampleKnowledgeBase(server);
      const { body } = await server.call('POST', `/v1/knowledge-bases/${kbId}/search`, { json: { query: 'lava lake on Ross Island', top_k: 3 } });
      t.is(body.data[0]?.document_id, docs.volcano);
    } finally {
      await server.close();
    }
  });
});
