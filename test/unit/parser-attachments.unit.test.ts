import { createHash } from 'node:crypto';
import test from 'ava';
import { addAttachments, attachmentDocumentId } from '../../consumers/parser/attachments.ts';
import { parserConsumer, type ParserDeps } from '../../consumers/parser/index.ts';
import { createFsBlobStore } from '../../src/adapters/fs/blob-store.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { foldStream, handleCommand } from '../../src/app/command-handler.ts';
import type { AppContext } from '../../src/app/context.ts';
import { createIdGenerator } from '../../src/app/ids.ts';
import { createLiveFeed } from '../../src/app/live-feed.ts';
import { contentClaimDecider, contentKey } from '../../src/domain/document/content-claim.ts';
import { documentDecider } from '../../src/domain/document/document.ts';
import { detectMediaType } from '../../src/parsing/detect.ts';
import type { ReadModelStore } from '../../src/ports/read-models.ts';
import { tempDir } from '../helpers/temp.ts';

/** addAttachments over a real log (SQLite) and blob store; the read model is a set of live ids. */

const dir = tempDir('kbqa-attachments-');
test.after.always(() => dir.remove());

const T0 = '2026-01-01T00:00:00.000Z';
const parent = {
  document_id: 'doc_mail',
  knowledge_base_id: 'kb_1',
  workspace_id: 'ws',
  name: 'mail.eml',
  media_type: 'message/rfc822',
  size_bytes: 100,
  sha256: 'a'.repeat(64),
  metadata: { team: 'ops' },
  chunking: { max_tokens: 64, overlap_tokens: 0 },
  uploaded_at: T0,
};
const text = (s: string) => new Uint8Array(Buffer.from(s));

function world(live: Set<string> = new Set()) {
  const store = createSqliteEventStore({ db: openSqlite(':memory:') });
  const ctx: AppContext = {
    store,
    readModels: { get: async (_c: string, id: string) => (live.has(id) ? { id } : null) } as unknown as ReadModelStore,
    projections: { waitFor: async () => {} },
    newId: createIdGenerator(),
    now: () => new Date(T0),
    consistencyTimeoutMs: 1000,
  };
  const deps = { ctx, blobs: createFsBlobStore(`${dir.path}/${Math.random()}`), detectMediaType, maxUploadBytes: 64 };
  const state = async (id: string) => foldStream(documentDecider, `document-${id}`, await store.readStream(`document-${id}`));
  return { ctx, deps, state };
}

test('readable attachments are uploaded with the email as parent; the rest are warnings; a retry makes nothing twice', async (t) => {
  const { deps, ctx, state } = world();
  const attachments = [
    { name: 'notes.txt', bytes: text('Meeting notes: the roof is fixed.') },
    { name: 'big.txt', bytes: text('x'.repeat(65)) },
    { name: 'blob.bin', bytes: new Uint8Array([0, 1, 2, 0, 255]) },
    { name: 'empty.txt', bytes: new Uint8Array() },
  ];
  const first = await addAttachments(deps, parent, attachments);
  t.deepEqual(first.added.map((a) => a.documentId), [attachmentDocumentId('doc_mail', 0)]);
  t.is(first.added[0]!.documentId, 'doc_mail_att1');
  t.deepEqual(first.warnings.map((w) => w.replace(/:.*/, '')), ['Attachment "big.txt" was not added', 'Attachment "blob.bin" was not added', 'Attachment "empty.txt" was not added']);
  t.regex(first.warnings[0]!, /65 bytes; the upload limit is 64/);

  const uploaded = (await ctx.store.readStream('document-doc_mail_att1'))[0]!;
  t.like(uploaded.data, { name: 'notes.txt', media_type: 'text/plain', parent_document_id: 'doc_mail', workspace_id: 'ws', metadata: { team: 'ops' } });

  const again = await addAttachments(deps, parent, attachments);
  t.deepEqual(again.added, first.added);
  t.is((await ctx.store.readStream('document-doc_mail_att1')).length, 1, 'no second upload');
  t.is((await state('doc_mail_att1')).status, 'queued');
});

test('bytes another live document holds stay that document; a stale claim is released', async (t) => {
  const bytes = text('Shared minutes of the board.');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const claimBy = (ctx: AppContext, holder: string) =>
    handleCommand(ctx.store, contentClaimDecider, contentKey('kb_1', sha256), {
      type: 'ClaimContent',
      data: { knowledge_base_id: 'kb_1', sha256, document_id: holder },
      metadata: { now: T0 },
    });

  const held = world(new Set(['doc_other']));
  await claimBy(held.ctx, 'doc_other');
  const result = await addAttachments(held.deps, parent, [{ name: 'minutes.txt', bytes }]);
  t.deepEqual(result.added, []);
  t.deepEqual(result.warnings, ['Attachment "minutes.txt" is already in the knowledge base as document doc_other.']);

  const stale = world();
  await claimBy(stale.ctx, 'doc_gone');
  const made = await addAttachments(stale.deps, parent, [{ name: 'minutes.txt', bytes }]);
  t.deepEqual(made.added.map((a) => a.documentId), ['doc_mail_att1']);
});

test('attachments made while the email was being deleted are deleted by the parser, their content released', async (t) => {
  const { ctx, deps, state } = world();
  const { document_id, uploaded_at: _at, ...rest } = parent;
  await handleCommand(ctx.store, documentDecider, document_id, { type: 'UploadDocument', data: { document_id, ...rest }, metadata: { now: T0 } });
  const [uploaded] = await ctx.store.readStream('document-doc_mail');
  const consumer = parserConsumer({
    lane: 'small',
    ...deps,
    feed: createLiveFeed(),
    limits: {},
    timeoutMs: 1000,
    concurrency: 1,
    blobs: { ...deps.blobs, localPath: async () => ({ path: '/dev/null', release: async () => {} }) },
    parser: {
      // The user deletes the email while it is parsed.
      parse: async () => {
        await handleCommand(ctx.store, documentDecider, document_id, { type: 'DeleteDocument', data: { document_id, workspace_id: 'ws' }, metadata: { now: T0 } });
        const chunk = { chunk_id: 'c0', index: 0, page: 1, text: 'Body.', heading_path: [], char_start: 0, char_end: 5, token_count: 1 };
        return { ok: true, mediaType: 'message/rfc822', pageCount: 1, chunks: [chunk], ocrPages: [], warnings: [], attachments: [{ name: 'notes.txt', bytes: text('Orphan notes.') }] };
      },
    },
  } as unknown as ParserDeps);
  await consumer.handle([uploaded!]);
  t.is((await state('doc_mail')).status, 'deleted');
  t.is((await state('doc_mail_att1')).status, 'deleted');
  const sha256 = createHash('sha256').update('Orphan notes.').digest('hex');
  const claim = foldStream(contentClaimDecider, `document_content-${contentKey('kb_1', sha256)}`, await ctx.store.readStream(`document_content-${contentKey('kb_1', sha256)}`));
  t.is(claim.holder, null);
});
