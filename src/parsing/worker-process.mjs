// Entry of a parser process (adapters/local/process-pool.ts). Our parsing code comes compiled
// once by the server (adapters/local/parser-bundle.ts, KBQA_PARSER_BUNDLE) or, where that could
// not be written, as TypeScript through tsx: a child process does not inherit the parent's loader.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import workerpool from 'workerpool';

// pdf.js is loaded before the TypeScript loader, so Node loads it as is: through tsx its 3 MB of
// JavaScript is transformed again in every new process, which cost 0.4 s before the first page
// and kept ~280 MB more resident over a 400-page parse (503 against 218 MB peak; bench pdf_engines).
// The worker module sets globalThis.pdfjsWorker, which pdf.js then uses instead of importing it.
await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]);
const bundle = process.env.KBQA_PARSER_BUNDLE;
if (!bundle) {
  const { register } = await import('tsx/esm/api');
  register();
}
const load = (name) => import(bundle ? pathToFileURL(join(bundle, `${name}.js`)).href : `./${name}.ts`);
// The settings the server handed this process (adapters/local/worker-parser.ts), given before any parser loads.
const { applySettingsArgs, RETIRE_EVENT } = await load('parser-settings');
applySettingsArgs(process.argv.slice(2));
const { runParseTask, withRetireCheck } = await load('worker-task');

// A parse that left its process big asks, before its result, for the process to end
// (withRetireCheck): adapters/local/process-pool.ts ends it once no task runs on RETIRE_EVENT.
const retire = () => workerpool.workerEmit(RETIRE_EVENT);

workerpool.worker({
  parse: (task) => withRetireCheck(() => runParseTask({ task }, (done, total) => workerpool.workerEmit({ done, total })), retire),
  render: (request) => runParseTask({ render: request }),
  warm: () => runParseTask({ warm: true }),
});
