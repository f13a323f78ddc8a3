import { loadTextAnalyzer } from '../src/adapters/text/analyzer.ts';
import type { Analyzer } from '../src/ports/analyzer.ts';

let loaded: Promise<Analyzer> | null = null;

/** The service's analyzer, language detection included, loaded once per process. */
export const defaultAnalyzer = (): Promise<Analyzer> => (loaded ??= loadTextAnalyzer());
