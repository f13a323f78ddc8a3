// Entry of a parser process (adapters/local/process-pool.ts). A child process does not inherit
// the parent's TypeScript loader, so this plain module installs it before loading the parser code.
import workerpool from 'workerpool';

// pdf.js is loaded before the TypeScript loader, so Node loads it as is: through tsx its 3 MB of
// JavaScript is transformed again in every new process, which cost 0.4 s before the first page
// and kept ~280 MB more resident over a 400-page parse (503 against 218 MB peak; bench pdf_engines).
// The worker module sets globalThis.pdfjsWorker, which pdf.js then uses instead of importing it.
await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]);
const { register } = await import('tsx/esm/api');
register();
// The settings the server handed this process (adapters/local/worker-parser.ts), given before any parser loads.
const { applySettingsArgs } = await import('./parser-settings.ts');
applySettingsArgs(process.argv.slice(2));
const { runParseTask } = await import('./worker-task.ts');

workerpool.worker({
  parse: (task) => runParseTask({ task }, (done, total) => workerpool.workerEmit({ done, total })),
  render: (request) => runParseTask({ render: request }),
  warm: () => runParseTask({ warm: true }),
});
