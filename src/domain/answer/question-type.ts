/**
 * What kind of answer a question wants, read from its wording, and whether a sentence has that
 * kind of thing in it: a name for "who", a date for "when", a number for "how many". A cue only
 * breaks ties between sentences that already share the question's words.
 */
export type QuestionType = 'quantity' | 'when' | 'where' | 'why' | 'who' | 'definition' | 'other';

const TYPE_PATTERNS: [QuestionType, RegExp][] = [
  [
    'quantity',
    new RegExp(
      [
        String.raw`\bhow (?:many|much|long|old|big|large|small|far|often|tall|high|heavy|fast|deep|wide)\b|\b(?:what|which)(?: is| was| are)?(?: the)? (?:number|amount|percentage|percent|price|cost|size|rate|total|count|fee|salary)\b`,
        String.raw`\bwie (?:viele?|lange|alt|groß|hoch|weit|oft|schwer|teuer)\b|\bwieviele?\b`,
        String.raw`\bcu[aá]nt[oa]s?\b|\bcombien\b|\bquant[oi]s?\b|\bquantas?\b`,
        String.raw`сколько|каков[аоы]? (?:размер|количество|число|цена|стоимость)`,
        '多少|几[个年次位名种]|多[大长高远久重]',
        'كم',
        'いくつ|何[人個回年]|いくら',
        '몇|얼마',
      ].join('|'),
      'u',
    ),
  ],
  [
    'when',
    new RegExp(
      [
        String.raw`\bwhen\b|\b(?:what|which) (?:year|date|day|month|time|century|decade)\b|\bsince when\b`,
        String.raw`\bwann\b|\bin welchem jahr\b|\bseit wann\b`,
        String.raw`\bcu[aá]ndo\b|\bquand\b|\bquando\b|\ben (?:qu[eé]|quel(?:le)?) (?:año|ann[eé]e|siglo|si[eè]cle)\b`,
        String.raw`когда|в каком году|в каком веке`,
        '什么时候|何时|哪一?年|哪一?天|几月|几时',
        'متى|في أي عام|في أي سنة',
        'いつ|何年',
        '언제|몇 년',
      ].join('|'),
      'u',
    ),
  ],
  [
    'where',
    new RegExp(
      [
        String.raw`\bwhere\b|\b(?:what|which|in which) (?:country|city|town|place|location|region|state|continent|address)\b`,
        String.raw`\bwo(?:her|hin)?\b|\bin welche[mr]? (?:land|stadt|region)\b`,
        String.raw`\bd[oó]nde\b|\bo[uù]\b|\bonde\b|\bdove\b`,
        String.raw`где|куда|откуда|в какой (?:стране|город|области)`,
        '哪里|哪儿|何处|哪个(?:国家|城市|地方)',
        'أين|في أي (?:بلد|مدينة)',
        'どこ',
        '어디',
      ].join('|'),
      'u',
    ),
  ],
  [
    'why',
    new RegExp(
      [
        String.raw`\bwhy\b|\bwhat (?:is|was|are|were) the (?:reason|cause|purpose)\b|\bhow come\b`,
        String.raw`\bwarum\b|\bweshalb\b|\bwieso\b|\bpor qu[eé](?!\p{L})|\bpourquoi\b|\bpor que\b|\bperch[eé](?!\p{L})`,
        'почему|зачем',
        '为什么|为何',
        'لماذا',
        'なぜ|どうして',
        '왜',
      ].join('|'),
      'u',
    ),
  ],
  [
    'who',
    new RegExp(
      [
        String.raw`\bwho(?:m|se)?\b|\b(?:what|which) (?:person|people|author|company|organi[sz]ation|team|group)\b`,
        String.raw`\bwer\b|\bwe[nm]\b|\bwessen\b|\bqui[eé]n(?:es)?(?!\p{L})|\bqui\b|\bquem\b|\bchi\b`,
        String.raw`(?:^|\s)(?:кто|кого|кому|кем|чей|чья|чьё)(?:\s|$|\?)`,
        '谁|哪位|何人',
        'من هو|من هي|(?:^|\s)من(?:\s)',
        '誰|だれ',
        '누구',
      ].join('|'),
      'u',
    ),
  ],
  [
    'definition',
    new RegExp(
      [
        String.raw`^\s*(?:what|who)(?: is|'s|’s| are| was| were| does) |\bdefine\b|\bdefinition of\b|\bmeaning of\b|\bwhat does .+ (?:mean|stand for)\b|\bstands? for\b`,
        String.raw`^\s*was (?:ist|sind|bedeutet)\b|^\s*qu[eé] (?:es|son|significa)\b|^\s*qu'est-ce que\b|^\s*o que [eé](?!\p{L})|^\s*che cos'?[eè](?!\p{L})`,
        String.raw`^\s*что (?:такое|означает)`,
        '是什么|什么是|指什么',
        '^\s*ما (?:هو|هي)',
      ].join('|'),
      'u',
    ),
  ],
];

export function questionType(question: string): QuestionType {
  const text = question.toLowerCase().replace(/^[\s¿¡"'«„“]+/u, '');
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
