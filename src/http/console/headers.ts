/**
 * The console page's headers: a CSP that allows only this origin's own files (no inline script or
 * style, no eval), blob: images (page images fetched with the console's header), no framing, and
 * Trusted Types required, so no string reaches an HTML sink even by mistake.
 */
const REACT_ARIA_PRESSABLE_STYLE = 'sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o=';

export const CONSOLE_PAGE_HEADERS: Record<string, string> = {
  'content-security-policy': [
    "default-src 'none'",
    "script-src 'self'",
    // React Aria adds one <style> of its own (touch-action on pressable elements); its hash is allowed,
    // nothing else inline. The browser tests fail on any CSP violation, so a new version's is noticed.
    `style-src 'self' '${REACT_ARIA_PRESSABLE_STYLE}'`,
    "img-src 'self' blob: data:",
    "connect-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "require-trusted-types-for 'script'",
    // One policy, 'default', which lets only an empty string through (web/console/src/trusted-types.ts).
    "trusted-types default",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  // The page names its hashed files: it must be asked for again, they never.
  'cache-control': 'no-cache',
  vary: 'accept-encoding',
};

export const IMMUTABLE = 'public, max-age=31536000, immutable';
