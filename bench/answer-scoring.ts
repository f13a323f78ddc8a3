// How an answer benchmark judges one chat response: SQuAD-style normalisation, containment of a
// gold answer, and what counts as a refusal. Pure functions, so test/unit can pin them without data.

/** A chat response as the answer suites see it; `answerable` and `coverage` only when the service sends them. */
export type ChatReply = { content: string; citations: number; answerable?: boolean; coverage?: unknown };

export type Normaliser = (text: string) => string;

const CITATION_MARKER = /\[\d+\]/;
// "[1]", "[2, 3]": the answerer's citation markers; stripped before scoring so that "[1]" never
// becomes the word "1" and matches a numeric gold answer.
const CITATION_MARKERS = /\[\d+(?:\s*,\s*\d+)*\]/g;
// Unicode punctuation covers the translations too (« », ¿, 、, ،); symbols go as well, as
// string.punctuation's $ + < = > ^ ` | ~ do in SQuAD's script.
const PUNCTUATION = /[\p{P}\p{S}]/gu;
// Invisible format characters (the right-to-left mark that opens some Arabic questions, zero-width joiners).
const FORMAT = /\p{Cf}/gu;
const ENGLISH_ARTICLES = /\b(a|an|the)\b/g;

export const hasCitationMarker = (content: string) => CITATION_MARKER.test(content);

/** The answer's own words, its citation markers aside. */
export const withoutMarkers = (content: string) => content.replace(CITATION_MARKERS, ' ');

/**
 * SQuAD's normalisation (lower case, no punctuation, no articles, single spaces) with NFKC first,
 * so full-width and compatibility forms compare equal. Punctuation becomes a space rather than
 * nothing: SQuAD compares tokens, this compares whole words inside an answer, where deleting the
 * dash of "1986—when" would hide "1986". Articles are English words: other languages keep theirs
 * (`articles: false`).
 */
export function squadNormalise(text: string, articles = true): string {
  let s = text.normalize('NFKC').toLowerCase().replace(FORMAT, '').replace(PUNCTUATION, ' ');
  if (articles) s = s.replace(ENGLISH_ARTICLES, ' ');
  return s.replace(/\s+/g, ' ').trim();
}

/** Chinese has no spaces between words: compare characters, with punctuation and whitespace gone. */
export const characterNormalise = (text: string) => text.normalize('NFKC').toLowerCase().replace(FORMAT, '').replace(PUNCTUATION, '').replace(/\s+/g, '');

/** The normaliser and containment test for a language's answers. */
export function scorerFor(language: string): { normalise: Normaliser; contains: (answer: string, gold: string) => boolean } {
  if (language === 'zh') return { normalise: characterNormalise, contains: (answer, gold) => gold.length > 0 && answer.includes(gold) };
  return { normalise: (t) => squadNormalise(t, language === 'en'), contains: containsWords };
}

/** Whether `gold` occurs in `answer` as whole words (both already normalised). */
export function containsWords(answer: string, gold: string): boolean {
  return gold.length > 0 && ` ${answer} `.includes(` ${gold} `);
}

/** Whether any gold answer occurs in the answer text, citation markers aside. */
export function containsGold(content: string, golds: readonly string[], language = 'en'): boolean {
  const { normalise, contains } = scorerFor(language);
  const answer = normalise(withoutMarkers(content));
  return golds.some((g) => contains(answer, normalise(g)));
}

/** Words of the answer: runs between spaces that hold a letter or digit (a stray "." left by a marker is none). */
export const wordCount = (content: string) => withoutMarkers(content).split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/** An answer counts only when it is grounded: something cited, and a marker in the text pointing at it. */
export const cites = (reply: ChatReply) => reply.citations > 0 && hasCitationMarker(reply.content);

/**
 * A refusal cites nothing and says so: by `answerable: false` when the service sends that field,
 * else by an answer without citation markers.
 */
export function isRefusal(reply: ChatReply): boolean {
  if (reply.citations > 0) return false;
  return typeof reply.answerable === 'boolean' ? !reply.answerable : !hasCitationMarker(reply.content);
}

/** SQuAD answerable: short (at most 80 words, markers aside), containing a gold answer, and cited. */
export function squadAnswerCorrect(reply: ChatReply, golds: readonly string[]): boolean {
  return wordCount(reply.content) <= 80 && cites(reply) && containsGold(reply.content, golds, 'en');
}

/** XQuAD: at most 600 characters (markers aside), containing the gold answer in the language's terms, and cited. */
export function xquadAnswerCorrect(reply: ChatReply, golds: readonly string[], language: string): boolean {
  return withoutMarkers(reply.content).trim().length <= 600 && cites(reply) && containsGold(reply.content, golds, language);
}
