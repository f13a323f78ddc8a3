// Entry of a parser process (adapters/local/process-pool.ts). A child process does not inherit
// the parent's TypeScript loader, so this plain module installs it before loading the parser code.
import { register } from 'tsx/esm/api';
import workerpool from 'workerpool';

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
