import { embedOriginProblem } from '../../../schemas/http/embed-origin.ts';
import { landingBundle } from './bundle.ts';

/** What the landing page shows before any question: the published agent's public face, nothing else. */
export type LandingPageView = {
  slug: string;
  name: string;
  opening_message: string | null;
  suggested_questions: string[];
  access_code_required: boolean;
};

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page's HTML (docs/landing-page.md). The name and the opening message are in the HTML, so the
 * first paint needs no script; the rest (suggested questions, the form, the answers) is the script's
 * (web/landing/), which reads the view from the JSON block. Every owner-written string is escaped
 * here, and the JSON's `<` too, so `</script>` in a name cannot end the block.
 */
export function renderLandingPage(view: LandingPageView, { nonce }: { nonce: string }): string {
  const { script, style } = landingBundle();
  const data = JSON.stringify(view).replace(/</g, '\\u003c');
  const name = escapeHtml(view.name);
  const opening = view.opening_message ? `<div class="msg agent"><p>${escapeHtml(view.opening_message)}</p></div>` : '';
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${name}</title>`,
    `<meta name="description" content="${name}">`,
    `<link rel="stylesheet" href="/assets/landing/${style}">`,
    `<script src="/assets/landing/${script}" nonce="${nonce}" defer></script>`,
    '</head><body><main>',
    `<h1>${name}</h1>`,
    `<div id="kbqa-log" role="log" aria-live="polite" aria-label="Conversation">${opening}</div>`,
    '<div id="kbqa-app"></div>',
    '<noscript><p>This page needs JavaScript to answer questions.</p></noscript>',
    '</main>',
    `<script type="application/json" id="kbqa-agent" nonce="${nonce}">${data}</script>`,
    '</body></html>',
  ].join('');
}

/**
 * The page's response headers: a strict CSP with the response's nonce (no inline script, no eval,
 * no inline style, nothing from another origin) and Trusted Types required, so no string can reach an
 * HTML sink even by mistake; who may frame it (the agent's allowed origins that are exact origins, none by default).
 */
export function landingPageHeaders(nonce: string, allowedOrigins: readonly string[]): Record<string, string> {
  // Entries the API refuses now (a wildcard, a quote) may have been saved before it did: never in the policy.
  const exact = allowedOrigins.filter((origin) => embedOriginProblem(origin) === null);
  const ancestors = exact.length ? exact.join(' ') : "'none'";
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}
