import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Embedder, ModelInfo } from '../../ports/models.ts';
import type { LocalModelSpec } from './local-model-specs.ts';

const THREAD = fileURLToPath(new URL('./local-embedder-thread.mjs', import.meta.url));
/** Texts per ONNX run: past 16 the padded batch costs as much per text as it saves (2 cores). */
const BATCH = 16;
/** The thread and its session (about 60 MB) end after this long without a call; starting again costs about 0.3 s. */
const IDLE_MS = 300_000;

type Call = { resolve: (vectors: Float32Array[]) => void; reject: (error: Error) => void; count: number };
type Thread = { worker: Worker; ready: Promise<void>; calls: Map<number, Call>; idle: NodeJS.Timeout | null };

export type LocalEmbedder = Embedder & { close(): Promise<void> };

/**
 * A built-in local model (local-model-specs.ts) run from its folder with @huggingface/transformers
 * on onnxruntime-node, on a thread of its own (local-embedder-thread.mjs), started on the first
 * call: a knowledge base that never chooses the model never loads it. A failed load (no runtime,
 * a damaged file) fails the call with its reason, and the next call tries again.
 */
/** `threads`: the session's intra-op threads (1 by default: 82 against 174 ms a 128-piece text with 2 on a busy 2-core host, where spinning threads fight the event loop). */
export function createLocalEmbedder(options: { spec: LocalModelSpec; folder: string; runtime: string; threads?: number; created?: number; idleMs?: number }): LocalEmbedder {
  const { spec, folder, runtime, threads = 1, created = 1_767_225_600, idleMs = IDLE_MS } = options;
  const model: ModelInfo = { id: spec.id, kind: 'embedding', ownedBy: 'kbqa', created };
  let thread: Thread | null = null;
  let nextId = 1;

  const stop = (current: Thread, error: Error) => {
    if (thread === current) thread = null;
    if (current.idle) clearTimeout(current.idle);
    for (const call of current.calls.values()) call.reject(error);
    current.calls.clear();
    void current.worker.terminate();
  };

  // An idle thread must not keep the process alive (a CLI command, a test); one with calls in flight must.
  const idle = (current: Thread) => {
    current.worker.unref();
    current.idle = setTimeout(() => stop(current, new Error(`${spec.id}: the thread ended.`)), idleMs).unref();
  };

  const start = (): Thread => {
    const worker = new Worker(THREAD, { workerData: { folder: resolve(folder), runtime: resolve(runtime), threads, dtype: 'q8', maxTokens: spec.maxTokens, batchSize: BATCH }, execArgv: [] });
    const current: Thread = { worker, ready: Promise.resolve(), calls: new Map(), idle: null };
    current.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: { ready?: true; failed?: string; id?: number; vectors?: Float32Array; message?: string }) => {
        if (message.ready) return resolve();
        if (message.failed !== undefined) {
          const error = new Error(`${spec.id} could not be loaded from ${folder}: ${message.failed}`);
          reject(error);
          return stop(current, error);
        }
        const call = current.calls.get(message.id!);
        if (!call) return;
        current.calls.delete(message.id!);
        if (message.vectors) call.resolve(split(message.vectors, call.count, spec.dimensions));
        else call.reject(new Error(`${spec.id}: ${message.message}`));
        if (current.calls.size === 0) idle(current);
      });
      worker.on('error', (error) => {
        reject(error);
        stop(current, error);
      });
      worker.on('exit', () => stop(current, new Error(`${spec.id}: the embedding thread stopped.`)));
    });
    current.ready.catch(() => {});
    return current;
  };

  return {
    model,
    dimensions: spec.dimensions,
    // Trained for its 384 dimensions: the first n are no smaller embedding of the same quality.
    shortens: false,
    async embed(texts) {
      if (texts.length === 0) return [];
      const current = (thread ??= start());
      if (current.idle) clearTimeout(current.idle);
      current.idle = null;
      current.worker.ref();
      const id = nextId++;
      // Sent at once: the thread answers once its model has loaded, or the load's failure rejects the call (stop).
      return new Promise<Float32Array[]>((resolve, reject) => {
        current.calls.set(id, { resolve, reject, count: texts.length });
        current.worker.postMessage({ id, texts });
      });
    },
    async close() {
      if (thread) stop(thread, new Error(`${spec.id}: closed.`));
    },
  };
}

function split(flat: Float32Array, count: number, dimensions: number): Float32Array[] {
  return Array.from({ length: count }, (_, i) => flat.slice(i * dimensions, (i + 1) * dimensions));
}
