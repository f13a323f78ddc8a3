/**
 * What paragraph styles tell us: heading levels and page breaks before. Word names its built-in
 * heading styles "heading 1".."heading 9" in styles.xml whatever the UI language, but documents
 * written by other tools (or old Word versions) carry the localized name, so those are
 * recognised too; custom styles become headings through an outline level, possibly inherited
 * through basedOn.
 */
export type StyleHeadings = (styleId: string | null, styleName: string | null) => number | undefined;

export type DocxStyles = {
  headingOf: StyleHeadings;
  /** Whether paragraphs of this style start a new page (w:pageBreakBefore, possibly inherited). */
  breaksBefore: (styleId: string | null) => boolean;
};

/** "Heading 1" in the languages Word ships in most; the number is the level. */
const LOCALIZED_HEADING =
  /^(?:heading|überschrift|titre|t[íi]tulo|titolo|kop|заголовок|nagłówek|标题|標題|見出し|제목|rubrik|overskrift|otsikko|nadpis|başlık|címsor|επικεφαλίδα|cabeçalho)\s*([1-9])$/iu;

type StyleRecord = { outline?: number; breakBefore?: boolean; basedOn?: string };

export function readStyles(stylesXml: string | undefined): DocxStyles {
  const records = stylesXml ? paragraphStyles(stylesXml) : new Map<string, StyleRecord>();
  const outline = (id: string) => inherited(records, id, (r) => r.outline);
  return {
    headingOf: (styleId, styleName) => {
      const named = LOCALIZED_HEADING.exec((styleName ?? '').trim()) ?? /^Heading([1-9])$/.exec(styleId ?? '');
      if (named) return Number(named[1]);
      if (styleName === 'Title' || styleId === 'Title') return 1;
      const level = styleId ? outline(styleId) : undefined;
      return level !== undefined && level < 9 ? level + 1 : undefined;
    },
    breaksBefore: (styleId) => (styleId ? inherited(records, styleId, (r) => r.breakBefore) === true : false),
  };
}

function paragraphStyles(xml: string): Map<string, StyleRecord> {
  const records = new Map<string, StyleRecord>();
  for (const [, attributes = '', body = ''] of xml.matchAll(/<w:style\b([^>]*)>([\s\S]*?)<\/w:style>/g)) {
    const id = /w:styleId="([^"]*)"/.exec(attributes)?.[1];
    if (!id || !/w:type="paragraph"/.test(attributes)) continue;
    const record: StyleRecord = {};
    const level = /<w:outlineLvl\s+w:val="(\d+)"/.exec(body)?.[1];
    if (level !== undefined) record.outline = Number(level);
    const breakBefore = /<w:pageBreakBefore\b([^>]*)\/?>/.exec(body);
    if (breakBefore) record.breakBefore = !/w:val="(?:0|false|off)"/.test(breakBefore[1] ?? '');
    record.basedOn = /<w:basedOn\s+w:val="([^"]*)"/.exec(body)?.[1];
    records.set(id, record);
  }
  return records;
}

/** The nearest value up the basedOn chain (bounded: a cycle in a broken file must end). */
function inherited<T>(records: Map<string, StyleRecord>, id: string, read: (record: StyleRecord) => T | undefined): T | undefined {
  let current: string | undefined = id;
  for (let depth = 0; current && depth < 20; depth++) {
    const record = records.get(current);
    if (!record) return undefined;
    const value = read(record);
    if (value !== undefined) return value;
    current = record.basedOn;
  }
  return undefined;
}
