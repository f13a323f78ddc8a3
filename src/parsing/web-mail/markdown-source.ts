/**
 * Markdown as documentation sites write it carries syntax marked does not know: YAML front
 * matter and VitePress/Docusaurus containers (`::: tip Title` … `:::`). Front matter is dropped;
 * a container's fences are removed so its body reads as ordinary paragraphs, and its custom
 * title is kept as a paragraph of its own. Fenced code is left untouched.
 */
export function plainMarkdown(source: string): string {
  const lines = source.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '').split('\n');
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(line));
    if (end > 0) lines.splice(0, end + 1);
  }
  let fence: string | undefined;
  const out: string[] = [];
  for (const line of lines) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      out.push(line);
      continue;
    }
    if (marker) {
      fence = marker;
      out.push(line);
      continue;
    }
    const container = /^\s*:{3,}\s*([\w-]*)\s*(.*)$/.exec(line);
    if (container) {
      out.push('', ...(container[2]?.trim() ? [container[2].trim(), ''] : []));
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}
