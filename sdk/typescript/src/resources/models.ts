import type { Transport } from '../http.ts';
import type { Model, Page } from '../types.ts';

export function modelsResource(t: Transport) {
  return {
    /** The chat, embedding and rerank models this deployment can use. */
    async list(options: { signal?: AbortSignal } = {}): Promise<Page<Model>> {
      return (await t.json<Page<Model>>({ method: 'GET', path: '/models', signal: options.signal })).body;
    },
    async get(id: string, options: { signal?: AbortSignal } = {}): Promise<Model> {
      return (await t.json<Model>({ method: 'GET', path: `/models/${encodeURIComponent(id)}`, signal: options.signal })).body;
    },
  };
}

export type ModelsResource = ReturnType<typeof modelsResource>;
