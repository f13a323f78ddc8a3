import { DEAD_LETTER_TOPIC, EVENT_TOPICS, topicOfStream, topicsForEventTypes } from '../../../schemas/topics.ts';

/**
 * Where the relay writes each event and what a group reads. Production uses the contract of
 * schemas/topics.ts; the map is injected so a test can give each fixture topics of its own.
 */
export type TopicMap = {
  ofStream(streamId: string): string;
  /** The topics a group reads: those carrying its event types, every event topic when it takes all. */
  forEventTypes(types: ReadonlySet<string> | undefined): string[];
  deadLetter: string;
  /** Every topic the relay and the bus need to exist. */
  all: readonly string[];
};

export const CONTRACT_TOPICS: TopicMap = {
  ofStream: topicOfStream,
  forEventTypes: (types) => (types ? topicsForEventTypes(types) : [...EVENT_TOPICS]),
  deadLetter: DEAD_LETTER_TOPIC,
  all: [...EVENT_TOPICS, DEAD_LETTER_TOPIC],
};

/** The contract's topics with `namespace` before each name (`ci-1.` → `ci-1.kbqa.document`); the empty namespace is the contract. */
export function namespacedTopics(namespace: string): TopicMap {
  if (namespace === '') return CONTRACT_TOPICS;
  const named = (topic: string) => `${namespace}${topic}`;
  return {
    ofStream: (streamId) => named(CONTRACT_TOPICS.ofStream(streamId)),
    forEventTypes: (types) => CONTRACT_TOPICS.forEventTypes(types).map(named),
    deadLetter: named(CONTRACT_TOPICS.deadLetter),
    all: CONTRACT_TOPICS.all.map(named),
  };
}
