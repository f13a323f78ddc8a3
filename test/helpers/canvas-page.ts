import type { Locator, Page } from 'playwright-core';
import { settledDocument, uploadFiles } from './documents.ts';
import type { TestServer } from './server.ts';

// What the workflow canvas's browser tests share: a ready knowledge base to retrieve from, and the
// ways they reach the canvas's controls.

/** A knowledge base holding one Markdown file, ready: its id and the document's. */
export async function notesKnowledgeBase(server: TestServer, notes: string): Promise<{ kbId: string; docId: string }> {
  const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'Turbine notes' } });
  const upload = await uploadFiles(server, kb.id, [{ name: 'zephyr-notes.md', bytes: notes, type: 'text/markdown' }]);
  const doc = await settledDocument(server, kb.id, upload.body.data[0].id, 60_000);
  if (doc.status !== 'ready') throw new Error(`zephyr-notes.md ${doc.status}: ${JSON.stringify(doc.error)}`);
  return { kbId: kb.id, docId: doc.id };
}

/**
 * The keyboard's way to press a control: focus it, then Enter (locator.press focuses first). A
 * control still disabled (a select whose options are loading) is waited for: Enter on it does
 * nothing, and on a busy machine the options came after the press (failed once in CI).
 */
export async function press(control: Locator) {
  const deadline = Date.now() + 30_000;
  while (!(await control.isEnabled())) {
    if (Date.now() > deadline) throw new Error('the control stayed disabled for 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await control.press('Enter');
}

/** A node on the canvas, by its id (its accessible name is "id (Type name)"). */
export const node = (page: Page, id: string) => page.getByRole('group', { name: new RegExp(`^${id} \\(`) });

/** The side panel of the node selected. */
export const panel = (page: Page) => page.locator('aside.node-panel');
