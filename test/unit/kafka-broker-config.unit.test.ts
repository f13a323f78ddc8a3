import test from 'ava';
import { serverProperties } from '../../scripts/kafka/broker-config.ts';

const parse = (text: string) => Object.fromEntries(text.trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]));

test('the development broker is one KRaft node on loopback that creates no topic on demand', (t) => {
  const p = parse(serverProperties({ broker: 40001, controller: 40002 }, '/tmp/k'));
  t.like(p, {
    'process.roles': 'broker,controller',
    'controller.quorum.voters': '1@127.0.0.1:40002',
    listeners: 'PLAINTEXT://127.0.0.1:40001,CONTROLLER://127.0.0.1:40002',
    'advertised.listeners': 'PLAINTEXT://127.0.0.1:40001',
    'log.dirs': '/tmp/k',
    'auto.create.topics.enable': 'false',
    'offsets.topic.replication.factor': '1',
  });
});
