import { escapeHtml } from './page-html.ts';

/**
 * What `POST /v1/agents/{id}/publish` answers as `embed` (docs/landing-page.md): a frame of the page,
 * and the script that opens it from a chat bubble (web/landing/embed.ts). Both HTML-escaped: the
 * name is the owner's text, pasted into other people's pages.
 */
export function embedSnippet(origin: string, slug: string, name: string): { iframe: string; script: string } {
  const base = origin.replace(/\/+$/, '');
  const page = escapeHtml(`${base}/a/${encodeURIComponent(slug)}`);
  return {
    iframe: `<iframe src="${page}" title="${escapeHtml(name)}" width="400" height="600" loading="lazy" allow="clipboard-write" style="border:0"></iframe>`,
    script: `<script src="${escapeHtml(`${base}/assets/landing/embed.js`)}" data-kbqa-agent="${escapeHtml(slug)}" defer></script>`,
  };
}
