import test from 'ava';
import { ANALYZER_LANGUAGES } from '../../schemas/knowledge-base-settings.ts';
import { loadTextAnalyzer } from '../../src/adapters/text/analyzer.ts';
import { testAnalyzer } from './suites/analyzer.suite.ts';

const analyzer = loadTextAnalyzer();
testAnalyzer(test, 'text analyzer', () => analyzer);

test('the settings schema accepts exactly the languages the analyzer supports', async (t) => {
  t.deepEqual([...(await analyzer).languages].sort(), [...ANALYZER_LANGUAGES].sort());
});
