/** What the landing page shows before any question: the published agent's public face, nothing else. */
export type LandingPageView = {
  slug: string;
  name: string;
  opening_message: string | null;
  suggested_questions: string[];
  access_code_required: boolean;
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's HTML (docs/landing-page.md). */
export function renderLandingPage(view: LandingPageView, { nonce }: { nonce: string }): string {
  const data = JSON.stringify(view).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(view.name)}</title></head><body><main><h1>${escapeHtml(view.name)}</h1></main><script type="application/json" id="kbqa-agent" nonce="${nonce}">${data}</script></body></html>`;
}

/** The page's response headers: a strict CSP with the response's nonce; who may frame it. */
export function landingPageHeaders(nonce: string, allowedOrigins: readonly string[]): Record<string, string> {
  const ancestors = allowedOrigins.length ? allowedOrigins.join(' ') : "'none'";
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors ${ancestors}`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}
