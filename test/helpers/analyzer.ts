import { createTextAnalyzer } from '../../src/adapters/text/analyzer.ts';
import { termReader } from '../../src/domain/answer/words.ts';

/**
 * The text analyzer without its language detector (whose data takes 0.6 s to load): languages
 * come from the script, so Latin text is analysed as English, like the service's own queries
 * the detector is unsure of. Tests that need detection load the real one.
 */
export const analyzer = createTextAnalyzer();

/** The answerer's reader over English text, as the extractive model builds it. */
export const englishReader = termReader((text) => analyzer.tokens(text, 'en'));
