import type { Citation } from './api.ts';
import { h } from './dom.ts';
import type { Strings } from './i18n.ts';

/**
 * An answer's text with its citation markers (`[1]`) as buttons that open the cited source. Only
 * markers with a citation behind them become buttons; the rest, and all other text, are text nodes.
 */
export function answerNodes(text: string, citations: readonly Citation[], t: Strings, open: (citation: Citation, from: HTMLElement) => void): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  for (const match of text.matchAll(/\[(\d+)\]/g)) {
    const citation = citations.find((c) => c.index === Number(match[1]));
    if (!citation) continue;
    nodes.push(document.createTextNode(text.slice(last, match.index)));
    const button = h('button', { type: 'button', class: 'cite', 'aria-label': t.citation(citation.index) }, String(citation.index));
    button.addEventListener('click', () => open(citation, button));
    nodes.push(button);
    last = match.index! + match[0].length;
  }
  nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}

/** The cited passage: file, page, quote, and the page's image with the passage highlighted (the server draws it). */
export function citationPanel(t: Strings) {
  const title = h('h2', { id: 'kbqa-citation-title' });
  const body = h('div', { class: 'citation-body' });
  const close = h('button', { type: 'button', class: 'close' }, t.close);
  const dialog = h('dialog', { class: 'citation', 'aria-labelledby': 'kbqa-citation-title' }, h('div', { class: 'citation-head' }, title, close), body);
  close.addEventListener('click', () => dialog.close());
  // A click on the backdrop (outside the panel's box) closes it too.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  document.body.append(dialog);
  return (citation: Citation) => {
    title.textContent = `${t.source} ${citation.index}`;
    const where = h('p', { class: 'where' }, h('strong', {}, citation.source), citation.page == null ? '' : ` · ${t.page(citation.page)}`);
    const quote = citation.quote ?? citation.paragraph;
    const figure = citation.image_url
      ? h('img', { src: citation.image_url, alt: t.pageAlt(citation.page ?? 1, citation.source), loading: 'lazy', decoding: 'async' })
      : '';
    body.replaceChildren(where, quote ? h('blockquote', {}, quote) : '', figure);
    dialog.showModal();
  };
}
