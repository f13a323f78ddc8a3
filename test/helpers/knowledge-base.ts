import { pdf } from '../unit/parsing-pdf-fixtures.ts';
import { settledDocument, uploadFiles } from './documents.ts';
import type { TestServer } from './server.ts';

/** Three small documents on distinct topics; the PDF puts its answer on page 2. */
export const FACTS = {
  volcano: 'Mount Erebus is the southernmost active volcano on Earth, located on Ross Island in Antarctica.',
  lake: 'The lava lake of Mount Erebus has been continuously active since at least 1972.',
  bread: 'Sourdough bread rises because wild yeast and lactobacilli ferment the flour and release carbon dioxide.',
  starter: 'A sourdough starter must be fed with fresh flour and water every day to stay active.',
  turbine: 'The Zephyr-9 wind turbine produces 4.2 megawatts at a rated wind speed of 12 metres per second.',
  blades: 'Each Zephyr-9 blade is 78 metres long and made of glass fibre reinforced epoxy.',
};

export type SampleKb = { kbId: string; docs: { volcano: string; bread: string; turbine: string } };

export async function turbinePdf(): Promise<Buffer> {
  return pdf((doc) => {
    doc.fontSize(12).text('Zephyr-9 product sheet. This page introduces the company and its history of building machines.');
    doc.addPage();
    doc.fontSize(12).text(`${FACTS.turbine} ${FACTS.blades}`);
  });
}

/** A knowledge base (settings as given) holding the three documents, all ready. */
export async function sampleKnowledgeBase(server: TestServer, settings: Record<string, unknown> = {}): Promise<SampleKb> {
  const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'sample', settings } });
  const text = async (name: string, body: string, metadata: Record<string, string>) => {
    const { body: out } = await server.call('POST', `/v1/knowledge-bases/${kb.id}/documents`, { json: { name, text: body, metadata } });
    return out.data[0].id as string;
  };
  const volcano = await text('erebus.md', `# Mount Erebus\n\n${FACTS.volcano}\n\n## Lava lake\n\n${FACTS.lake}`, { topic: 'geology', lang: 'en' });
  const bread = await text('sourdough.txt', `${FACTS.bread}\n\n${FACTS.starter}`, { topic: 'cooking', lang: 'en' });
  const upload = await uploadFiles(server, kb.id, [{ name: 'zephyr-9.pdf', bytes: await turbinePdf(), type: 'application/pdf' }], {
    metadata: JSON.stringify({ topic: 'engineering', lang: 'en' }),
  });
  const turbine = upload.body.data[0].id as string;
  for (const id of [volcano, bread, turbine]) {
    const doc = await settledDocument(server, kb.id, id);
    if (doc.status !== 'ready') throw new Error(`fixture document ${doc.name} ${doc.status}: ${JSON.stringify(doc.error)}`);
  }
  return { kbId: kb.id, docs: { volcano, bread, turbine } };
}
