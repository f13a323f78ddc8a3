/**
 * A content word of a question or a passage as the answerer compares them: `stem` is the shared
 * analyzer's term (normalised, folded, stemmed in the text's language), `word` its surface form.
 */
export type Term = { stem: string; word: string };

/**
 * The content words of a text in order, repeats kept, stop words out: the service's one analyzer
 * (ports/analyzer.ts), handed to the answerer by its adapter, so a question meets its passages'
 * words exactly as it meets them in the keyword index.
 */
export type TermReader = (text: string) => Term[];

const WORD = /[\p{L}\p{N}]+/gu;

/** Every word of `text`, lower-cased, in order (stop words included): for spotting pronouns and lead-ins. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * Words that ask rather than say ("tell me", "please explain", "how many"): the analyzer's stop
 * lists do not hold them, and a match on them would make any sentence look relevant. English, German, French and Spanish.
 */
const FILLER = new Set(
  (
    'tell please explain describe know want give show let say said says us ok okay thanks thank hi hello yes ' +
    'many much since also however therefore thus whether yet per via upon onto could would might must shall ' +
    'bitte erklären erkläre sagen sag zeige danke hallo ' +
    'expliquer explique dire dis merci bonjour ' +
    'explicar explica decir dime gracias hola'
  ).split(' '),
);

/** The reader's terms less the filler of requests. */
export const contentTermsOf = (read: TermReader, text: string): Term[] => read(text).filter((t) => !FILLER.has(t.word));

/** A reader over an analyzer's tokens of one language (the adapter passes `text => analyzer.tokens(text, language)`). */
export function termReader(tokens: (text: string) => readonly { term: string; word: string; stop: boolean }[]): TermReader {
  return (text) => {
    const terms: Term[] = [];
    for (const t of tokens(text)) if (!t.stop) terms.push({ stem: t.term, word: t.word });
    return terms;
  };
}
