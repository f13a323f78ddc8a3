import test from 'ava';
import { type AppContext, settled } from '../../src/app/context.ts';
import { ApiError } from '../../src/ports/api-error.ts';

const ctxWhose = (waitFor: AppContext['projections']['waitFor']) => ({ projections: { waitFor }, consistencyTimeoutMs: 5000 }) as unknown as AppContext;

test('a write whose read models lag past the wait answers 503 read_models_behind with retry-after, not an opaque 500', async (t) => {
  const lagging = ctxWhose(async () => {
    throw new Error('consumer group projector did not reach position 42 within 5000 ms');
  });
  const error = await t.throwsAsync(settled(lagging, { streamId: 'document-doc_1', position: 42n }), { instanceOf: ApiError });
  t.like(error, { status: 503, code: 'read_models_behind', headers: { 'retry-after': '1' } });
  t.regex(error!.message, /recorded.*5000 ms/);
  t.false(error!.message.includes('projector'), 'nothing internal');
  await t.notThrowsAsync(settled(ctxWhose(async () => {}), { streamId: 'document-doc_1', position: 42n }));
});
