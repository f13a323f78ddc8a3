// Entry of one engine run (pdf-engines.bench.ts): pdf.js loaded as the parser processes load it
// (before the TypeScript loader, see src/parsing/worker-process.mjs), then the run itself.
await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]);
const { register } = await import('tsx/esm/api');
register();
await import('./pdf-engine-child.ts');
