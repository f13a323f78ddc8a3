/**
 * The development and CI broker's files: a single-node KRaft server (broker and controller in
 * one JVM) on loopback, tuned to start fast and to behave as production does where our adapter
 * cares (topics are created by ensureTopics, never by a producer, as in a managed cluster).
 */
export type BrokerPorts = { broker: number; controller: number };

export function serverProperties(ports: BrokerPorts, dataDir: string): string {
  const settings: Record<string, string | number | boolean> = {
    'process.roles': 'broker,controller',
    'node.id': 1,
    'controller.quorum.voters': `1@127.0.0.1:${ports.controller}`,
    listeners: `PLAINTEXT://127.0.0.1:${ports.broker},CONTROLLER://127.0.0.1:${ports.controller}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${ports.broker}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'log.dirs': dataDir,
    // The adapter's producer sets allowAutoTopicCreation: false; a broker that created topics on a
    // metadata request would hide a missing ensureTopics.
    'auto.create.topics.enable': false,
    // One node: the internal topics cannot have more replicas than that.
    'offsets.topic.replication.factor': 1,
    'transaction.state.log.replication.factor': 1,
    'transaction.state.log.min.isr': 1,
    'share.coordinator.state.topic.replication.factor': 1,
    'share.coordinator.state.topic.min.isr': 1,
    // 50 offsets partitions by default: creating them on the first group join takes seconds on a small machine.
    'offsets.topic.num.partitions': 4,
    // Tests start and stop many groups: a first join waits 3 s by default for more members.
    'group.initial.rebalance.delay.ms': 0,
  };
  return Object.entries(settings).map(([key, value]) => `${key}=${value}`).join('\n') + '\n';
}

/** Log4j 2 to stdout (the script sends it to broker.log); INFO, as the release archive's default. */
export const log4jProperties = [
  'appender.out.type=Console',
  'appender.out.name=out',
  'appender.out.layout.type=PatternLayout',
  'appender.out.layout.pattern=[%d] %p %m (%c)%n',
  'rootLogger.level=INFO',
  'rootLogger.appenderRef.out.ref=out',
  // The request logger and the state change log repeat every request at INFO.
  'logger.state.name=state.change.logger',
  'logger.state.level=WARN',
  '',
].join('\n');
