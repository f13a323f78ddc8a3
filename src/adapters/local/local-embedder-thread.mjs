// The thread a local embedding model runs on (local-embedder.ts): onnxruntime-node runs a session
// synchronously on the thread that calls it, so on the event loop a 256-piece batch would stall
// every request for tens of milliseconds. Plain JavaScript: a thread does not inherit the parent's
// TypeScript loader, and this file needs none. Messages: `{ id, texts }` in, `{ id, vectors }`
// (one Float32Array, text after text) or `{ id, message }` out; `{ ready }` or `{ failed }` once.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const { folder, runtime, threads, dtype, maxTokens, batchSize } = workerData;

/** The runtime `kbqa models fetch` installed beside the models (model-runtime.ts), else one the project itself depends on. */
function runtimeEntry() {
  for (const base of [join(runtime, 'package.json'), import.meta.filename]) {
    try {
      const cjs = createRequire(base).resolve('@huggingface/transformers');
      const esm = join(dirname(cjs), 'transformers.node.mjs');
      return pathToFileURL(existsSync(esm) ? esm : cjs).href;
    } catch {
      // not installed there
    }
  }
  throw new Error(`The local model runtime is not installed in ${runtime}: run \`kbqa models fetch\` or \`kbqa models install\`.`);
}

async function open() {
  const transformers = await import(runtimeEntry());
  const { AutoModel, AutoTokenizer, env } = transformers;
  // Only the folder: nothing is fetched at run time, on a user's machine or here.
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = dirname(folder);
  const name = basename(folder);
  const [tokenizer, model] = await Promise.all([AutoTokenizer.from_pretrained(name), AutoModel.from_pretrained(name, { dtype, device: 'cpu', session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 } })]);
  return { tokenizer, model };
}

/** Mean of the token vectors under the attention mask, L2-normalised (sentence-transformers' pooling for this model). */
function meanPool(hidden, mask, out, offset) {
  const [n, length, width] = hidden.dims;
  const data = hidden.data;
  const ones = mask.data;
  for (let row = 0; row < n; row++) {
    const vector = out.subarray(offset + row * width, offset + (row + 1) * width);
    let count = 0;
    for (let t = 0; t < length; t++) {
      if (Number(ones[row * length + t]) === 0) continue;
      count++;
      const base = (row * length + t) * width;
      for (let d = 0; d < width; d++) vector[d] += data[base + d];
    }
    let norm = 0;
    for (let d = 0; d < width; d++) norm += (vector[d] /= count || 1) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < width; d++) vector[d] /= norm;
  }
}

async function embed({ tokenizer, model }, texts) {
  const width = model.config.hidden_size;
  const out = new Float32Array(texts.length * width);
  // Texts of like length batch together, so a short query does not pad to a long chunk's length.
  const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length);
  const sorted = new Float32Array(texts.length * width);
  for (let start = 0; start < order.length; start += batchSize) {
    const batch = order.slice(start, start + batchSize).map((i) => texts[i]);
    const inputs = tokenizer(batch, { padding: true, truncation: true, max_length: maxTokens });
    const output = await model(inputs);
    const hidden = output.last_hidden_state ?? Object.values(output)[0];
    meanPool(hidden, inputs.attention_mask, sorted, start * width);
  }
  order.forEach((original, at) => out.set(sorted.subarray(at * width, (at + 1) * width), original * width));
  return out;
}

const opening = open();
opening.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error) }),
);

// One call at a time: the session uses the cores it is given, and calls queue here meanwhile.
let chain = Promise.resolve();
parentPort.on('message', ({ id, texts }) => {
  chain = chain.then(async () => {
    try {
      const vectors = await embed(await opening, texts);
      parentPort.postMessage({ id, vectors }, [vectors.buffer]);
    } catch (error) {
      parentPort.postMessage({ id, message: error instanceof Error ? error.message : String(error) });
    }
  });
});
