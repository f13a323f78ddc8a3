import test from 'ava';
import { apiKeyDecider, type ApiKeyEvent, grants, keyValidity, mayUseKnowledgeBases } from '../../src/domain/api-key/api-key.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(apiKeyDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const key = {
  key_id: 'key_1',
  workspace_id: 'ws_a',
  name: 'ci',
  hash: 'a'.repeat(64),
  prefix: 'kbqa-abcdefg',
  scopes: ['read' as const],
  knowledge_base_ids: null,
  expires_at: null,
};
const created: ApiKeyEvent = { type: 'ApiKeyCreated', data: { ...key, created_at: T0 } };

test('create records the hash, never a secret', (t) => {
  spec(t).given().when({ type: 'CreateApiKey', data: key, metadata: at(T0) }).then([created]);
  t.false(JSON.stringify(created).includes('secret'));
});

test('an expiry in the past is refused, naming expires_at', (t) => {
  spec(t)
    .given()
    .when({ type: 'CreateApiKey', data: { ...key, expires_at: '2025-12-31T00:00:00.000Z' }, metadata: at(T0) })
    .thenThrows('invalid', 'invalid_expiry', 'expires_at');
});

test('repeated scopes are refused', (t) => {
  spec(t)
    .given()
    .when({ type: 'CreateApiKey', data: { ...key, scopes: ['read', 'read'] }, metadata: at(T0) })
    .thenThrows('invalid', 'duplicate_scope', 'scopes');
});

test('the same key id twice is a conflict', (t) => {
  spec(t).given(created).when({ type: 'CreateApiKey', data: key, metadata: at(T0) }).thenThrows('conflict', 'api_key_exists');
});

test('revoke once; a second revoke, or one from another workspace, finds nothing', (t) => {
  const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { key_id: 'key_1', revoked_at: T0 } };
  spec(t).given(created).when({ type: 'RevokeApiKey', data: { key_id: 'key_1', workspace_id: 'ws_a' }, metadata: at(T0) }).then([revoked]);
  spec(t).given(created, revoked).when({ type: 'RevokeApiKey', data: { key_id: 'key_1', workspace_id: 'ws_a' }, metadata: at(T0) }).thenThrows('not_found', 'api_key_not_found');
  spec(t).given(created).when({ type: 'RevokeApiKey', data: { key_id: 'key_1', workspace_id: 'ws_b' }, metadata: at(T0) }).thenThrows('not_found', 'api_key_not_found');
});

test('scopes nest: admin ⊇ write ⊇ read', (t) => {
  t.true(grants(['admin'], 'read'));
  t.true(grants(['admin'], 'write'));
  t.true(grants(['write'], 'read'));
  t.false(grants(['write'], 'admin'));
  t.false(grants(['read'], 'write'));
  t.true(grants(['read', 'admin'], 'admin'));
});

test('validity: revoked wins, expiry is exclusive of the instant itself', (t) => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  t.is(keyValidity({ revoked: false, expiresAtMs: null }, now), 'valid');
  t.is(keyValidity({ revoked: false, expiresAtMs: now }, now), 'expired');
  t.is(keyValidity({ revoked: false, expiresAtMs: now + 1000 }, now), 'valid');
  t.is(keyValidity({ revoked: true, expiresAtMs: now - 1 }, now), 'revoked');
});

test('a key limited to knowledge bases may use only what names nothing but those', (t) => {
  t.true(mayUseKnowledgeBases(null, ['kb_x']));
  t.true(mayUseKnowledgeBases(null, null), 'an unlimited key reaches what names every knowledge base');
  t.true(mayUseKnowledgeBases(['kb_x'], ['kb_x']));
  t.true(mayUseKnowledgeBases(['kb_x', 'kb_y'], ['kb_y', 'kb_x']));
  t.true(mayUseKnowledgeBases(['kb_x'], []), 'a workflow that names no knowledge base is open to every key');
  t.false(mayUseKnowledgeBases(['kb_x'], ['kb_y']));
  t.false(mayUseKnowledgeBases(['kb_x'], ['kb_x', 'kb_y']), 'one knowledge base outside the limit is enough to refuse');
  t.false(mayUseKnowledgeBases(['kb_x'], null), 'a limited key never reaches what names every knowledge base');
});
