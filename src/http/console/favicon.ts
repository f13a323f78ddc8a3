/**
 * The icon browsers ask for at /favicon.ico on any page of this origin (the console, the landing
 * pages): a small SVG, so a tab shows something and the server's log no 404 per page opened. SVG
 * at that path is what current browsers read; its type says so.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b5cad"/><path d="M9 8h3v7l7-7h4l-8 8 8 8h-4l-7-7v7H9z" fill="#fff"/></svg>`;

export const FAVICON_HEADERS = { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' };
