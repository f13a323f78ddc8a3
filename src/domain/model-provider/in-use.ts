import type { z } from 'zod';
import type { ProviderModel } from '../../../schemas/events/model-provider.ts';
import { providerModelRef } from './model-provider.ts';

type Model = z.infer<typeof ProviderModel>;

/**
 * Something kept that names models and would start failing, unasked, if a provider's model went
 * away: a knowledge base (its embedding and rerank models) or an agent (its chat model, draft and
 * published: the published one answers on a public page). `label` is how a refusal names it.
 */
export type ModelUser = { label: string; uses: readonly { model: string | null; type: Model['type'] }[] };

export const knowledgeBaseUses = (kb: { id: string; settings: { embedding_model: string; rerank: { model: string | null } } }): ModelUser => ({
  label: kb.id,
  uses: [
    { model: kb.settings.embedding_model, type: 'embedding' },
    { model: kb.settings.rerank.model, type: 'rerank' },
  ],
});

export const agentUses = (agent: { id: string; draft: { name: string; model: string }; published: { config: { model: string } } | null }): ModelUser => ({
  label: `${agent.draft.name} (${agent.id})`,
  uses: [agent.draft.model, agent.published?.config.model ?? null].map((model) => ({ model, type: 'chat' as const })),
});

/**
 * The provider's model a use names, or null when it names none of its. `isDeployment`: the ids the
 * deployment serves are its own even with a slash in them (`intfloat/e5-large-v2`), as lookups find them first.
 */
function ownModel(providerName: string, model: string | null, isDeployment: (id: string) => boolean) {
  if (model === null || isDeployment(model)) return null;
  const ref = providerModelRef(model);
  return ref?.provider === providerName ? ref.model : null;
}

/** The users naming any of the provider's models: while there are any, it may be neither deleted nor renamed. */
export function usersOf(providerName: string, users: readonly ModelUser[], isDeployment: (id: string) => boolean): string[] {
  return users.filter((user) => user.uses.some((use) => ownModel(providerName, use.model, isDeployment) !== null)).map((user) => user.label);
}

/**
 * The users a new model list would strand: one whose model leaves the list (with its type), or,
 * for an embedding model, changes its dimensions (the index holds vectors of the old size).
 */
export function strandedBy(providerName: string, next: readonly Model[], current: readonly Model[], users: readonly ModelUser[], isDeployment: (id: string) => boolean): string[] {
  const stranded = ({ model, type }: ModelUser['uses'][number]) => {
    const id = ownModel(providerName, model, isDeployment);
    const before = id === null ? undefined : current.find((m) => m.id === id && m.type === type);
    if (!before) return false;
    const after = next.find((m) => m.id === id && m.type === type);
    return !after || after.dimensions !== before.dimensions;
  };
  return users.filter((user) => user.uses.some(stranded)).map((user) => user.label);
}
