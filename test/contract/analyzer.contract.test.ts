import test from 'ava';
import { loadTextAnalyzer } from '../../src/adapters/text/analyzer.ts';
import { testAnalyzer } from './suites/analyzer.suite.ts';

const analyzer = loadTextAnalyzer();
testAnalyzer(test, 'text analyzer', () => analyzer);
