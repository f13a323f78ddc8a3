import test from 'ava';
import type { Principal } from '../../src/app/services/principal.ts';
import { provenanceOf, requireProvenanceAccess } from '../../src/app/services/provenance.ts';

const limitedTo = (...kbs: string[]): Principal => ({ keyId: 'k', workspaceId: 'w', scopes: ['read'], knowledgeBaseIds: kbs });

test('provenance is the union of the sources, in the order first met, each once', (t) => {
  t.deepEqual(provenanceOf(['kb_a'], null, undefined, new Set(['kb_b', 'kb_a']), ['kb_c']), ['kb_a', 'kb_b', 'kb_c']);
  t.deepEqual(provenanceOf(), []);
});

test('a key reads what was built only if it may read every source', (t) => {
  t.notThrows(() => requireProvenanceAccess(limitedTo('kb_a', 'kb_b'), ['kb_a', 'kb_b']));
  t.notThrows(() => requireProvenanceAccess(limitedTo('kb_a'), []));
  t.throws(() => requireProvenanceAccess(limitedTo('kb_a'), ['kb_a', 'kb_b']), { message: /kb_b/ });
  t.throws(() => requireProvenanceAccess(limitedTo('kb_a'), null), { message: /limited/ });
  t.notThrows(() => requireProvenanceAccess({ ...limitedTo(), knowledgeBaseIds: null }, ['kb_a', 'kb_b']));
});
