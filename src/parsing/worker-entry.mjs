// Entry of a parser worker thread. Workers do not inherit the parent's TypeScript loader, so
// this plain module installs it before loading the parser code.
import { register } from 'tsx/esm/api';

register();
const { runParseTask } = await import('./worker-task.ts');

export default runParseTask;
