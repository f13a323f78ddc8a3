const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The snippets a site pastes to show a published agent (docs/landing-page.md, "Embed snippet").
 * Here until src/http/landing/ exports its own `embedSnippet`, which the integrator swaps in.
 */
export function embedSnippet(origin: string, slug: string, name: string): { iframe: string; script: string } {
  const page = `${origin}/a/${slug}`;
  return {
    iframe: `<iframe src="${escapeAttribute(page)}" title="${escapeAttribute(name)}" style="border:0;width:100%;height:600px" loading="lazy" allow="clipboard-write"></iframe>`,
    script: `<script src="${escapeAttribute(`${origin}/a/_assets/embed.js`)}" data-kbqa-agent="${escapeAttribute(slug)}" defer></script>`,
  };
}
