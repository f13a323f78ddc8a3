import test from 'ava';
import { allProjections } from '../../src/capabilities/index.ts';
import { type ResponseCommand, responseDecider, type ResponseEvent } from '../../src/domain/response/response.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';
import { projectionSpec } from '../helpers/projection-spec.ts';

const spec = deciderSpec(responseDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:05.000Z';
const data: Extract<ResponseCommand, { type: 'StoreResponse' }>['data'] = {
  response_id: 'resp_1',
  workspace_id: 'w',
  api_key_id: 'k',
  knowledge_base_ids: ['kb_1'],
  conversation: [
    { role: 'user', content: 'How long is a blade?' },
    { role: 'assistant', content: '78 metres [1].' },
  ],
  input_items: [{ id: 'in_1_0', role: 'user', content: 'How long is a blade?' }],
  response: { id: 'resp_1', object: 'response' },
};
const stored: ResponseEvent = { type: 'ResponseStored', data: { ...data, stored_at: T0 } };
const deleted: ResponseEvent = { type: 'ResponseDeleted', data: { response_id: 'resp_1', deleted_at: T1 } };
const store: ResponseCommand = { type: 'StoreResponse', data, metadata: at(T0) };
const remove: ResponseCommand = { type: 'DeleteResponse', data: { response_id: 'resp_1' }, metadata: at(T1) };

test('a response is stored once, at the command time', (t) => {
  spec(t).given().when(store).then([stored]);
  spec(t).given(stored).when({ ...store, metadata: at(T1) }).then([]);
});

test('a stored response is deleted once; a deleted one is neither stored again nor deleted again', (t) => {
  spec(t).given(stored).when(remove).then([deleted]);
  spec(t).given(stored, deleted).when(remove).then([]);
  spec(t).given(stored, deleted).when(store).then([]);
  spec(t).given().when(remove).then([]);
});

test('the responses read model holds the stored response until it is deleted', async (t) => {
  const { response_id, ...rest } = stored.data;
  await projectionSpec(allProjections)(t).given(stored).then('responses', { resp_1: { id: response_id, ...rest } });
  await projectionSpec(allProjections)(t).given(stored, deleted).then('responses', {});
});
