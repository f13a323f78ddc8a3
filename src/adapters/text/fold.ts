/**
 * Accents go where readers type without them: Latin and Greek letters lose their combining
 * marks ("Café" meets "cafe", German "Häuser" meets "Hauser", acceptable for search), Cyrillic
 * only ё → е (й and ї are letters of their own), Arabic and Hebrew lose their optional vowel
 * points and the tatweel (which also turns أ إ آ into ا, as Arabic search normalisers do). The
 * vowel signs of Indic and South-East Asian scripts are letters and stay; so do Vietnamese
 * tones, which tell words apart.
 */
const LATIN_GREEK_MARKS = /([\p{Script=Latin}\p{Script=Greek}])\p{M}+/gu;
const POINTS = /[\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u0640\u06d6-\u06ed]/g;
const YO = /ё/g;
const KEEPS_MARKS = new Set(['vi']);

export function foldMarks(word: string, language: string): string {
  if (isAscii(word) || KEEPS_MARKS.has(language)) return word;
  const decomposed = word.normalize('NFD');
  return decomposed.replace(LATIN_GREEK_MARKS, '$1').replace(POINTS, '').normalize('NFC').replace(YO, 'е');
}

export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
