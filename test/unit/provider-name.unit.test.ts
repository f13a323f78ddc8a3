import test from 'ava';
import { providerNameDecider, type ProviderNameEvent } from '../../src/domain/model-provider/provider-name.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(providerNameDecider);
const NOW = '2026-01-01T00:00:00.000Z';
const mine = { workspace_id: 'ws_a', name: 'acme', provider_id: 'mp_1' };
const theirs = { ...mine, provider_id: 'mp_2' };
const claimed: ProviderNameEvent = { type: 'ModelProviderNameClaimed', data: mine };

test('the first claim holds the name; a claim again by the holder or by another changes nothing', (t) => {
  spec(t).given().when({ type: 'ClaimProviderName', data: mine, metadata: at(NOW) }).then([claimed]);
  spec(t).given(claimed).when({ type: 'ClaimProviderName', data: mine, metadata: at(NOW) }).then([]);
  spec(t).given(claimed).when({ type: 'ClaimProviderName', data: theirs, metadata: at(NOW) }).then([]);
});

test('only the holder releases the name, which may then be claimed again', (t) => {
  spec(t).given(claimed).when({ type: 'ReleaseProviderName', data: theirs, metadata: at(NOW) }).then([]);
  spec(t).given(claimed).when({ type: 'ReleaseProviderName', data: mine, metadata: at(NOW) }).then([{ type: 'ModelProviderNameReleased', data: mine }]);
  spec(t).given(claimed, { type: 'ModelProviderNameReleased', data: mine }).when({ type: 'ClaimProviderName', data: theirs, metadata: at(NOW) }).then([{ type: 'ModelProviderNameClaimed', data: theirs }]);
});
