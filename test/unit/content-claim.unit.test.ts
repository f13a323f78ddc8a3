import test from 'ava';
import { contentClaimDecider, type ContentClaimEvent, contentKey } from '../../src/domain/document/content-claim.ts';
import { fold } from '../../src/domain/shared/decider.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(contentClaimDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const content = { knowledge_base_id: 'kb_1', sha256: 'a'.repeat(64) };
const claim = (document_id: string) => ({ type: 'ClaimContent' as const, data: { ...content, document_id }, metadata: at(T0) });
const release = (document_id: string) => ({ type: 'ReleaseContent' as const, data: { ...content, document_id }, metadata: at(T0) });
const claimed = (document_id: string): ContentClaimEvent => ({ type: 'DocumentContentClaimed', data: { ...content, document_id } });
const released = (document_id: string): ContentClaimEvent => ({ type: 'DocumentContentReleased', data: { ...content, document_id } });
const holderAfter = (...events: ContentClaimEvent[]) => fold(contentClaimDecider.evolve, contentClaimDecider.initialState(), events).holder;

test('the first upload of some bytes claims them', (t) => {
  spec(t).given().when(claim('doc_1')).then([claimed('doc_1')]);
  t.is(holderAfter(claimed('doc_1')), 'doc_1');
});

test('a later upload of the same bytes claims nothing and learns the holder', (t) => {
  spec(t).given(claimed('doc_1')).when(claim('doc_2')).then([]);
  t.is(holderAfter(claimed('doc_1')), 'doc_1');
});

test('the holder claiming again (a retried request) changes nothing', (t) => {
  spec(t).given(claimed('doc_1')).when(claim('doc_1')).then([]);
});

test('the holder releases its claim (its document was deleted), and the bytes are free again', (t) => {
  spec(t).given(claimed('doc_1')).when(release('doc_1')).then([released('doc_1')]);
  t.is(holderAfter(claimed('doc_1'), released('doc_1')), null);
  spec(t).given(claimed('doc_1'), released('doc_1')).when(claim('doc_2')).then([claimed('doc_2')]);
});

test('only the holder can release: another document, or free bytes, release nothing', (t) => {
  spec(t).given(claimed('doc_1')).when(release('doc_2')).then([]);
  spec(t).given().when(release('doc_1')).then([]);
  spec(t).given(claimed('doc_1'), released('doc_1')).when(release('doc_1')).then([]);
});

test('one claim stream per knowledge base and content', (t) => {
  t.is(contentClaimDecider.streamId(contentKey('kb_1', 'ab')), 'document_content-kb_1-ab');
  t.not(contentKey('kb_1', 'ab'), contentKey('kb_2', 'ab'));
});
