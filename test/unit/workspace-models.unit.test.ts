import test from 'ava';
import type { ModelProviderDoc } from '../../projections/model-providers/index.ts';
import { createWorkspaceModelResolver } from '../../src/app/services/workspace-models.ts';
import type { ReadModelStore } from '../../src/ports/read-models.ts';
import type { SecretStore } from '../../src/ports/secret-store.ts';

const provider: ModelProviderDoc = {
  id: 'mp_1',
  object: 'model_provider',
  workspace_id: 'ws_a',
  name: 'acme',
  base_url: 'https://api.example.com/v1',
  secret_ref: 'sec_1',
  api_key_hint: '…abcd',
  models: [
    { id: 'chat', type: 'chat' },
    { id: 'embed', type: 'embedding', dimensions: 4 },
    { id: 'embed-unsized', type: 'embedding' },
    { id: 'rerank', type: 'rerank' },
  ],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

/** A resolver over one provider of ws_a, whose key is in `keys` (a test may take it out); it counts the clients it builds. */
function resolverWith(keys: Map<string, string>) {
  // Only what the resolver reads: providers by workspace and name.
  const readModels = {
    find: async (_collection: string, query?: { where?: Record<string, unknown> }) =>
      query?.where?.workspace_id === provider.workspace_id && query.where.name === provider.name ? [provider] : [],
  } as unknown as ReadModelStore;
  const secrets: SecretStore = {
    put: async () => {},
    get: async (workspaceId, ref) => keys.get(`${workspaceId}/${ref}`) ?? null,
    delete: async () => {},
    close: async () => {},
  };
  const built: string[] = [];
  const client = (kind: string) => async (spec: { model: string; apiKey: string }) => {
    built.push(`${kind}:${spec.model}:${spec.apiKey}`);
    return { model: { id: spec.model } } as never;
  };
  const resolver = createWorkspaceModelResolver({ readModels, secrets, makeChatModel: client('chat'), makeEmbedder: client('embedding'), makeReranker: client('rerank') });
  return { resolver, built };
}

test('a model resolves by its workspace and type only; an embedding model without dimensions does not', async (t) => {
  const { resolver, built } = resolverWith(new Map([['ws_a/sec_1', 'sk-a']]));
  t.truthy(await resolver.chatModel('ws_a', 'acme/chat'));
  t.truthy(await resolver.embedder('ws_a', 'acme/embed'));
  t.truthy(await resolver.reranker('ws_a', 'acme/rerank'));
  t.is(await resolver.chatModel('ws_b', 'acme/chat'), undefined, 'another workspace naming it finds nothing');
  t.is(await resolver.embedder('ws_a', 'acme/chat'), undefined, 'a chat model is no embedding model');
  t.is(await resolver.chatModel('ws_a', 'acme/unlisted'), undefined);
  t.is(await resolver.embedder('ws_a', 'acme/embed-unsized'), undefined);
  t.deepEqual(built, ['chat:chat:sk-a', 'embedding:embed:sk-a', 'rerank:rerank:sk-a']);
});

test('a provider whose key this process cannot read is a 503 saying so, not a missing model; once readable it resolves', async (t) => {
  const keys = new Map<string, string>();
  const { resolver } = resolverWith(keys);
  for (const resolve of [() => resolver.embedder('ws_a', 'acme/embed'), () => resolver.chatModel('ws_a', 'acme/chat')]) {
    const error = await t.throwsAsync(resolve());
    t.like(error, { status: 503, code: 'provider_key_unavailable' });
    t.regex(error!.message, /model provider 'acme'/);
  }
  // The failure was not cached.
  keys.set('ws_a/sec_1', 'sk-later');
  t.truthy(await resolver.embedder('ws_a', 'acme/embed'));
});

test('a resolved client is reused until a provider event of its workspace evicts it', async (t) => {
  const { resolver, built } = resolverWith(new Map([['ws_a/sec_1', 'sk-a']]));
  const first = await resolver.chatModel('ws_a', 'acme/chat');
  t.is(await resolver.chatModel('ws_a', 'acme/chat'), first);
  resolver.apply([{ type: 'ModelProviderUpdated', data: { workspace_id: 'ws_b' } }] as never);
  t.is(await resolver.chatModel('ws_a', 'acme/chat'), first, 'another workspace’s event evicts nothing here');
  resolver.apply([{ type: 'ModelProviderUpdated', data: { workspace_id: 'ws_a' } }] as never);
  t.not(await resolver.chatModel('ws_a', 'acme/chat'), first);
  t.is(built.length, 2);
});
