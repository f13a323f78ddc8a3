/**
 * What kind of answer a question wants, read from its wording, and whether a sentence has that
 * kind of thing in it: a name for "who", a date for "when", a number for "how many". A cue only
 * breaks ties between sentences that already share the question's words.
 */
export type QuestionType = 'quantity' | 'when' | 'where' | 'why' | 'who' | 'definition' | 'other';

const TYPE_PATTERNS: [QuestionType, RegExp][] = [
  ['quantity', /\bhow (?:many|much|long|old|big|large|small|far|often|tall|high|heavy|fast|deep|wide)\b|\b(?:what|which)(?: is| was| are)?(?: the)? (?:number|amount|percentage|percent|price|cost|size|rate|total|count|fee|salary)\b/],
  ['when', /\bwhen\b|\b(?:what|which) (?:year|date|day|month|time|century|decade)\b|\bsince when\b/],
  ['where', /\bwhere\b|\b(?:what|which|in which) (?:country|city|town|place|location|region|state|continent|address)\b/],
  ['why', /\bwhy\b|\bwhat (?:is|was|are|were) the (?:reason|cause|purpose)\b|\bhow come\b/],
  ['who', /\bwho(?:m|se)?\b|\b(?:what|which) (?:person|people|author|company|organi[sz]ation|team|group)\b/],
  ['definition', /^\s*(?:what|who)(?: is|'s|’s| are| was| were| does) |\bdefine\b|\bdefinition of\b|\bmeaning of\b|\bwhat does .+ (?:mean|stand for)\b|\bstands? for\b/],
];

export function questionType(question: string): QuestionType {
  const text = question.toLowerCase();
  for (const [type, pattern] of TYPE_PATTERNS) if (pattern.test(text)) return type;
  return 'other';
}

const MONTH = /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/i;
const DATE = /\b(?:1[0-9]{3}|20[0-9]{2})s?\b|\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b(?:century|centuries|decade|ago|yesterday|today|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i;
const NUMBER = /\p{N}|[%$€£¥]|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundreds?|thousands?|millions?|billions?|dozens?|half|twice|double|triple)\b/iu;
const PLACE = /\b(?:in|at|near|from|to|located|based|headquartered|situated)\s+(?:the\s+)?\p{Lu}|\b(?:located|situated|headquartered|based)\b/u;
const REASON = /\b(?:because|due to|since|so that|in order to|as a result|reason|caused? by|therefore|thus|owing to|leads? to|results? in)\b/i;
const COPULA = /\b(?:is|are|was|were|means|meant|refers? to|stands? for|defined as|denotes|describes|consists? of)\b/i;
const NAME = /\b\p{Lu}[\p{Ll}'’-]+(?:\s+(?:\p{Lu}\.\s*)?\p{Lu}[\p{Ll}'’-]+)+|\b(?:Dr|Mr|Mrs|Ms|Prof|Sir)\.?\s+\p{Lu}/gu;

/**
 * How strongly `sentence` carries what a question of `type` asks for, 0..1. `isQuestionWord`
 * excludes the question's own subject: "Acme Corp" in a sentence is not the answer to "Who founded
 * Acme Corp?", and the year in "What happened in 1998?" is not an answer to a "when".
 */
export function typeCue(type: QuestionType, sentence: string, isQuestionWord: (word: string) => boolean): number {
  switch (type) {
    case 'quantity':
      return NUMBER.test(withoutQuestionWords(sentence, isQuestionWord)) ? 1 : 0;
    case 'when': {
      const rest = withoutQuestionWords(sentence, isQuestionWord);
      return DATE.test(rest) ? 1 : MONTH.test(rest) && /\d/.test(rest) ? 1 : 0;
    }
    case 'where':
      return PLACE.test(sentence) ? 1 : 0;
    case 'why':
      return REASON.test(sentence) ? 1 : 0;
    case 'who': {
      // A name made of the question's own words ("Acme Corp" for "Who founded Acme Corp?") is its subject, not its answer.
      for (const [name] of sentence.matchAll(NAME)) {
        if (!name.split(/\s+/).some((part) => isQuestionWord(part.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')))) return 1;
      }
      return 0;
    }
    case 'definition': {
      const copula = COPULA.exec(sentence);
      if (!copula) return 0;
      // "X is …" defines X; a copula late in the sentence, after other matter, rarely does.
      const before = sentence.slice(0, copula.index).split(/\s+/).filter(Boolean);
      return before.length > 0 && before.length <= 8 && before.some((w) => isQuestionWord(w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ''))) ? 1 : 0.4;
    }
    case 'other':
      return 0;
  }
}

function withoutQuestionWords(sentence: string, isQuestionWord: (word: string) => boolean): string {
  return sentence.replace(/[\p{L}\p{N}]+(?:[.,]\p{N}+)*/gu, (w) => (isQuestionWord(w.toLowerCase().replace(/,/g, '')) ? ' ' : w));
}
