// The helper thread of vector-scan-split.ts: it scans the part of a sign-code scan it is given,
// in the memory of the mirror named, and says when it is done. Plain JavaScript, so that the
// thread starts without the TypeScript loader. The control words are laid out in
// vector-scan-split.ts (CONTROL).
import { receiveMessageOnPort, workerData } from 'node:worker_threads';

const { control, port, layout } = workerData;
const numbers = new Float32Array(control.buffer);
const kernels = new Map();
// Waits end now and then so that a terminate() from the parent takes effect.
const WAIT_MS = 1000;

let seen = 0;
Atomics.store(control, layout.ready, 1);
Atomics.notify(control, layout.ready);
for (;;) {
  Atomics.wait(control, layout.request, seen, WAIT_MS);
  const request = Atomics.load(control, layout.request);
  if (request === seen) continue;
  seen = request;
  // Mirrors met and mirrors gone, posted before the request that needs them.
  for (let message = receiveMessageOnPort(port); message; message = receiveMessageOnPort(port)) {
    const { id, module, memory } = message.message;
    if (module) kernels.set(id, new WebAssembly.Instance(module, { env: { memory } }).exports);
    else kernels.delete(id);
  }
  const scan = kernels.get(Atomics.load(control, layout.target))?.scan;
  if (scan) {
    const at = (word) => control[layout[word]];
    scan(at('blocks'), at('count'), at('tables'), at('meta'), at('out'), numbers[layout.k1], numbers[layout.k2], numbers[layout.k3]);
  }
  Atomics.store(control, layout.done, scan ? request : -request);
  Atomics.notify(control, layout.done);
}
