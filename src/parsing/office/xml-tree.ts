import { Parser } from 'htmlparser2';

/** A parsed XML element: its qualified name as written (`p:sp`), attributes, children and text in order. */
export type XmlNode = { name: string; attributes: Record<string, string>; children: XmlNode[]; text: string };

/**
 * A small element tree for the XML parts of OOXML and EPUB packages. htmlparser2 in XML mode
 * never expands DTD entities, so it cannot be made to blow up; the packages are still checked
 * for DTDs before they get here (zip-safety.ts), because other readers may see the same parts.
 */
export function parseXml(xml: string): XmlNode {
  const root: XmlNode = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const node: XmlNode = { name, attributes, children: [], text: '' };
        stack[stack.length - 1]!.children.push(node);
        stack.push(node);
      },
      ontext(text) {
        stack[stack.length - 1]!.text += text;
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  return root;
}

/** The name without its namespace prefix: `p:sp` → `sp`, so prefixes chosen by other producers still match. */
export const localName = (node: XmlNode) => node.name.slice(node.name.indexOf(':') + 1);

export const childrenNamed = (node: XmlNode, name: string) => node.children.filter((c) => localName(c) === name);

export const childNamed = (node: XmlNode, name: string) => node.children.find((c) => localName(c) === name);

/** Depth-first, in document order. */
export function descendantsNamed(node: XmlNode, name: string, found: XmlNode[] = []): XmlNode[] {
  for (const child of node.children) {
    if (localName(child) === name) found.push(child);
    descendantsNamed(child, name, found);
  }
  return found;
}

/** An attribute by local name, whatever its prefix (`r:id`, `id`). */
export function attribute(node: XmlNode, name: string): string | undefined {
  for (const [key, value] of Object.entries(node.attributes)) if (key === name || key.endsWith(`:${name}`)) return value;
  return undefined;
}

/** Relationship targets of a .rels part by id, resolved against the folder of the part they belong to. */
export function relationships(rels: XmlNode, baseDir: string): Map<string, { type: string; target: string }> {
  const map = new Map<string, { type: string; target: string }>();
  for (const rel of descendantsNamed(rels, 'Relationship')) {
    const id = rel.attributes.Id;
    const target = rel.attributes.Target;
    if (!id || !target || rel.attributes.TargetMode === 'External') continue;
    map.set(id, { type: rel.attributes.Type ?? '', target: resolvePart(baseDir, target) });
  }
  return map;
}

/** A relative part name resolved against a folder inside the package (`../notesSlides/x.xml`). */
export function resolvePart(baseDir: string, target: string): string {
  const parts = target.startsWith('/') ? [] : baseDir.split('/').filter(Boolean);
  for (const segment of safeDecode(target).split('/')) {
    if (segment === '..') parts.pop();
    else if (segment && segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

function safeDecode(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}
