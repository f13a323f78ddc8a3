import test from 'ava';
import { extractEntities } from '../../src/domain/document/entities.ts';

test('capitalised runs, acronyms and identifiers, lower-cased', (t) => {
  const entities = extractEntities(
    'The Technology Acceptance Model (TAM) was proposed by Fred Davis in 1989. It predicts IL-6 levels and BRCA1 mutations in the United States of America.',
  );
  t.deepEqual(entities.sort(), ['brca1', 'fred davis', 'il-6', 'tam', 'technology acceptance model', 'united states of america'].sort());
});

test('common sentence openers and plain numbers are not entities', (t) => {
  t.deepEqual(extractEntities('However, this is fine. Table 3 shows 1990s data. We agree.'), []);
});
