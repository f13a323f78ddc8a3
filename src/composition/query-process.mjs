// Entry of a query process (query-offload.ts, adapters/local/rpc-processes.ts). A child process
// does not inherit the parent's TypeScript loader, so this plain module installs it before
// loading the retrieval code. Calls arrive while the retrieval opens: they wait for it, and
// each is answered as soon as it is done, in whatever order.
import { register } from 'tsx/esm/api';

register();
const opening = import('./query-process.ts').then(({ openQueryRetrieval }) => openQueryRetrieval(JSON.parse(process.env.KBQA_QUERY_PROCESS_CONFIG)));
opening.catch(() => {});

process.on('message', async ({ id, method, params }) => {
  try {
    const retrieval = await opening;
    process.send({ id, ok: true, value: await retrieval[method](...params) });
  } catch (error) {
    process.send({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
