/**
 * "Not covered" in the language the question was asked in, so a refusal reads in the asker's
 * language (the console in 简体中文 no longer shows an English sentence under a Chinese question).
 * The sentence says the same in each: nothing in the knowledge base is relevant enough. Languages
 * without a translation here get the English one.
 */
const NOT_COVERED: Record<string, string> = {
  en: 'The knowledge base does not cover this question: none of its passages is relevant enough to answer it.',
  zh: '知识库没有涵盖这个问题：其中没有足够相关的段落可以回答它。',
  ja: 'ナレッジベースはこの質問を扱っていません。回答できるほど関連性の高い箇所がありません。',
  ko: '지식 베이스에 이 질문에 대한 내용이 없습니다. 답변할 만큼 관련성이 높은 구절이 없습니다.',
  de: 'Die Wissensdatenbank deckt diese Frage nicht ab: Keiner ihrer Abschnitte ist relevant genug, um sie zu beantworten.',
  fr: 'La base de connaissances ne couvre pas cette question : aucun de ses passages n’est assez pertinent pour y répondre.',
  es: 'La base de conocimiento no cubre esta pregunta: ninguno de sus pasajes es lo bastante relevante para responderla.',
  pt: 'A base de conhecimento não cobre esta pergunta: nenhum dos seus trechos é relevante o suficiente para respondê-la.',
  it: 'La knowledge base non copre questa domanda: nessuno dei suoi passaggi è abbastanza pertinente per rispondere.',
  nl: 'De kennisbank behandelt deze vraag niet: geen van de passages is relevant genoeg om haar te beantwoorden.',
  ru: 'База знаний не охватывает этот вопрос: ни один из её фрагментов недостаточно релевантен, чтобы на него ответить.',
  uk: 'База знань не охоплює це питання: жоден з її фрагментів не є достатньо релевантним, щоб на нього відповісти.',
  pl: 'Baza wiedzy nie obejmuje tego pytania: żaden z jej fragmentów nie jest wystarczająco trafny, by na nie odpowiedzieć.',
  sv: 'Kunskapsbasen täcker inte den här frågan: inget av dess avsnitt är tillräckligt relevant för att besvara den.',
  tr: 'Bilgi tabanı bu soruyu kapsamıyor: pasajlarının hiçbiri yanıtlamak için yeterince ilgili değil.',
};

export const NOT_COVERED_ANSWER = NOT_COVERED.en!;

/** The refusal in `language` (an ISO 639-1 code, as the analyzer detects it), else in English. */
export function notCoveredAnswer(language: string | undefined): string {
  return (language && NOT_COVERED[language]) || NOT_COVERED_ANSWER;
}

/** Whether a text is the refusal, in any of its languages (a client or a test telling refusals from answers). */
export const isNotCoveredAnswer = (text: string) => Object.values(NOT_COVERED).includes(text.trim());
