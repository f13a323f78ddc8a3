import { modelProviderDecider } from '../domain/model-provider/model-provider.ts';
import { providerNameDecider, providerNameKey } from '../domain/model-provider/provider-name.ts';
import type { CommandMetadata } from '../domain/shared/decider.ts';
import { handleCommand } from './command-handler.ts';
import type { AppContext } from './context.ts';

type Claim = { workspaceId: string; name: string; providerId: string };

const run = (ctx: AppContext, type: 'ClaimProviderName' | 'ReleaseProviderName', { workspaceId, name, providerId }: Claim, metadata: CommandMetadata) =>
  handleCommand(ctx.store, providerNameDecider, providerNameKey(workspaceId, name), {
    type,
    data: { workspace_id: workspaceId, name, provider_id: providerId },
    metadata,
  });

/** Whether a provider exists, by its own stream (not the read model, which may not show a provider created a moment ago). */
async function providerExists(ctx: AppContext, providerId: string): Promise<boolean> {
  const events = await ctx.store.readStream(modelProviderDecider.streamId(providerId));
  return events.length > 0 && events.at(-1)!.type !== 'ModelProviderDeleted';
}

/**
 * Claims a provider name for `providerId`: true when it now holds it (also when it already did: a
 * retry), false when a provider that exists holds it. A holder that never came to be or is gone (a
 * crash between the claim and the provider's creation, or before its release) is released first.
 * What stays open: a holder between its claim and its creation, a few milliseconds, is taken for gone.
 */
export async function claimProviderName(ctx: AppContext, claim: Claim, metadata: CommandMetadata): Promise<boolean> {
  let holder = (await run(ctx, 'ClaimProviderName', claim, metadata)).state.holder;
  if (holder !== null && holder !== claim.providerId && !(await providerExists(ctx, holder))) {
    await run(ctx, 'ReleaseProviderName', { ...claim, providerId: holder }, metadata);
    holder = (await run(ctx, 'ClaimProviderName', claim, metadata)).state.holder;
  }
  return holder === claim.providerId;
}

export async function releaseProviderName(ctx: AppContext, claim: Claim, metadata: CommandMetadata): Promise<void> {
  await run(ctx, 'ReleaseProviderName', claim, metadata);
}
