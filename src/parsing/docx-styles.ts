/**
 * Heading levels that come from paragraph styles. Word's built-in heading styles are named
 * "heading 1".."heading 9" in styles.xml whatever the UI language, and custom styles become
 * headings through an outline level, possibly inherited through basedOn.
 */
export type StyleHeadings = (styleId: string | null, styleName: string | null) => number | undefined;

export function styleHeadings(stylesXml: string | undefined): StyleHeadings {
  const outline = stylesXml ? outlineLevelsByStyle(stylesXml) : new Map<string, number>();
  return (styleId, styleName) => {
    const named = /^(?:heading|überschrift|titre|t[íi]tulo)\s*([1-9])$/i.exec(styleName ?? '') ?? /^Heading([1-9])$/.exec(styleId ?? '');
    if (named) return Number(named[1]);
    if (styleName === 'Title' || styleId === 'Title') return 1;
    const level = styleId ? outline.get(styleId) : undefined;
    return level !== undefined && level < 9 ? level + 1 : undefined;
  };
}

function outlineLevelsByStyle(xml: string): Map<string, number> {
  const own = new Map<string, number>();
  const basedOn = new Map<string, string>();
  for (const [, attributes = '', body = ''] of xml.matchAll(/<w:style\b([^>]*)>([\s\S]*?)<\/w:style>/g)) {
    const id = /w:styleId="([^"]*)"/.exec(attributes)?.[1];
    if (!id || !/w:type="paragraph"/.test(attributes)) continue;
    const level = /<w:outlineLvl\s+w:val="(\d+)"/.exec(body)?.[1];
    if (level !== undefined) own.set(id, Number(level));
    const parent = /<w:basedOn\s+w:val="([^"]*)"/.exec(body)?.[1];
    if (parent) basedOn.set(id, parent);
  }
  const resolved = new Map<string, number>();
  for (const id of new Set([...own.keys(), ...basedOn.keys()])) {
    let current: string | undefined = id;
    for (let depth = 0; current && depth < 20; depth++, current = basedOn.get(current)) {
      const level = own.get(current);
      if (level !== undefined) {
        resolved.set(id, level);
        break;
      }
    }
  }
  return resolved;
}
