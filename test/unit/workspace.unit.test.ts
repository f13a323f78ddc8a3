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
