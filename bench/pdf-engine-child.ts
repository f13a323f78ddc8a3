// One PDF engine (or our pipeline) over the files named on the command line, in a process of its
// own so its peak RSS is its own: prints { files: [{ pages, seconds, boxes, text }], max_rss_mb }.
//   node bench/pdf-engine-child.mjs <pdfjs|embedpdf|hyzyla|pipeline> <file.pdf>...
import { readFileSync } from 'node:fs';
import { ENGINES, type EngineName } from './pdf-engines.ts';
import { pipelineStages } from './pdf-stages.ts';

async function readOne(mode: string, path: string) {
  const bytes = new Uint8Array(readFileSync(path));
  if (mode === 'pipeline') {
    const { blocks, ...stages } = await pipelineStages(path, bytes);
    return { pages: stages.pages, seconds: stages.parse_ms / 1000, stages, text: blocks.join('\n') };
  }
  const t0 = performance.now();
  const read = await ENGINES[mode as EngineName](bytes);
  return { pages: read.pages.length, seconds: (performance.now() - t0) / 1000, boxes: read.boxes, text: read.pages.join('\n') };
}

async function main() {
  const [mode, ...paths] = process.argv.slice(2);
  if (!mode || !(mode === 'pipeline' || Object.hasOwn(ENGINES, mode))) throw new Error(`unknown engine '${mode}'`);
  const files = [];
  for (const path of paths) files.push(await readOne(mode, path));
  process.stdout.write(JSON.stringify({ files, max_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) }));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
