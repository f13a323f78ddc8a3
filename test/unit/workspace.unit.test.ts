import test from 'ava';
import { workspaceDecider } from '../../src/domain/workspace/workspace.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(workspaceDecider);
const T0 = '2026-01-01T00:00:00.000Z';

test('create a workspace', (t) => {
  spec(t)
    .given()
    .when({ type: 'CreateWorkspace', data: { workspace_id: 'default', name: 'Default' }, metadata: at(T0) })
    .then([{ type: 'WorkspaceCreated', data: { workspace_id: 'default', name: 'Default', created_at: T0 } }]);
});

test('creating an existing workspace is a conflict', (t) => {
  spec(t)
    .given({ type: 'WorkspaceCreated', data: { workspace_id: 'default', name: 'Default', created_at: T0 } })
    .when({ type: 'CreateWorkspace', data: { workspace_id: 'default', name: 'Again' }, metadata: at(T0) })
    .thenThrows('conflict', 'workspace_exists');
});

for (const id of ['', 'has space', 'dots.not.allowed', 'ümlaut', 'x'.repeat(65), '../etc']) {
  test(`a workspace id must be 1–64 letters, digits, '-' or '_': ${JSON.stringify(id.slice(0, 12))}`, (t) => {
    spec(t)
      .given()
      .when({ type: 'CreateWorkspace', data: { workspace_id: id, name: 'W' }, metadata: at(T0) })
      .thenThrows('invalid', 'invalid_workspace_id');
  });
}

test('workspace ids at the edges of the pattern are accepted', (t) => {
  for (const id of ['a', 'A-b_9', 'x'.repeat(64)]) {
    spec(t)
      .given()
      .when({ type: 'CreateWorkspace', data: { workspace_id: id, name: 'W' }, metadata: at(T0) })
      .then([{ type: 'WorkspaceCreated', data: { workspace_id: id, name: 'W', created_at: T0 } }]);
  }
});
