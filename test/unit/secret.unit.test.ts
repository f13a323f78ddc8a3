import test from 'ava';
import { secretDecider, type SecretEvent } from '../../src/domain/secret/secret.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(secretDecider);
const NOW = '2026-01-01T00:00:00.000Z';
const data = { workspace_id: 'ws_a', name: 'openai', secret_ref: 'sec_1', hint: '…abcd' };
const stored: SecretEvent = { type: 'SecretStored', data: { ...data, created_at: NOW } };
const deleted: SecretEvent = { type: 'SecretDeleted', data: { workspace_id: 'ws_a', name: 'openai', secret_ref: 'sec_1', deleted_at: NOW } };

test('a name is stored once, with the ref and hint only', (t) => {
  spec(t).given().when({ type: 'StoreSecret', data, metadata: at(NOW) }).then([stored]);
  spec(t).given(stored).when({ type: 'StoreSecret', data: { ...data, secret_ref: 'sec_2' }, metadata: at(NOW) }).thenThrows('conflict', 'secret_exists');
});

test('a deleted name may be stored again', (t) => {
  spec(t).given(stored, deleted).when({ type: 'StoreSecret', data: { ...data, secret_ref: 'sec_2' }, metadata: at(NOW) }).then([
    { type: 'SecretStored', data: { ...data, secret_ref: 'sec_2', created_at: NOW } },
  ]);
});

test('deleting names the ref to destroy; an absent secret, or another workspace’s, is not found', (t) => {
  spec(t).given(stored).when({ type: 'DeleteSecret', data: { workspace_id: 'ws_a', name: 'openai' }, metadata: at(NOW) }).then([deleted]);
  spec(t).given().when({ type: 'DeleteSecret', data: { workspace_id: 'ws_a', name: 'openai' }, metadata: at(NOW) }).thenThrows('not_found', 'secret_not_found');
  spec(t).given(stored, deleted).when({ type: 'DeleteSecret', data: { workspace_id: 'ws_a', name: 'openai' }, metadata: at(NOW) }).thenThrows('not_found', 'secret_not_found');
  spec(t).given(stored).when({ type: 'DeleteSecret', data: { workspace_id: 'ws_b', name: 'openai' }, metadata: at(NOW) }).thenThrows('not_found', 'secret_not_found');
});

test('the hosts a stored secret may go to change in place; an absent secret, or another workspace’s, is not found', (t) => {
  const change = { workspace_id: 'ws_a', name: 'openai', allowed_hosts: ['api.openai.com'] };
  spec(t).given(stored).when({ type: 'ChangeSecretAllowedHosts', data: change, metadata: at(NOW) }).then([{ type: 'SecretAllowedHostsChanged', data: { ...change, changed_at: NOW } }]);
  spec(t).given().when({ type: 'ChangeSecretAllowedHosts', data: change, metadata: at(NOW) }).thenThrows('not_found', 'secret_not_found');
  spec(t).given(stored, deleted).when({ type: 'ChangeSecretAllowedHosts', data: change, metadata: at(NOW) }).thenThrows('not_found', 'secret_not_found');
  spec(t).given(stored).when({ type: 'ChangeSecretAllowedHosts', data: { ...change, workspace_id: 'ws_b' }, metadata: at(NOW) }).thenThrows('not_found', 'secret_not_found');
});
