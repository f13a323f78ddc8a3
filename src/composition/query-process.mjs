// Entry of a query process (query-offload.ts). A child process does not inherit the parent's
// TypeScript loader, so this plain module installs it before loading the retrieval code.
import { register } from 'tsx/esm/api';
import workerpool from 'workerpool';

register();
const { openQueryRetrieval } = await import('./query-process.ts');
const retrieval = await openQueryRetrieval(JSON.parse(process.env.KBQA_QUERY_PROCESS_CONFIG));

workerpool.worker({
  retrieveContext: (kb, request, options) => retrieval.retrieveContext(kb, request, options),
  retrieveContextAcross: (kbs, request, options) => retrieval.retrieveContextAcross(kbs, request, options),
});
