// Quality benchmarks through the HTTP API, each suite in its own file:
//   npm run eval                          every suite
//   npm run eval -- squad2 xquad docs     the named suites
//   npm run eval -- keyword xquad:zh      parts of suites (a SciFact mode, an XQuAD language)
//   … --out rows.jsonl --failures f.jsonl per-question rows, all of them or only the wrong ones
// Prints one JSON object on stdout (progress on stderr). A suite without its data reports {skipped}.
import { createRowSink, type Suite } from './eval-context.ts';
import { parseEvalArgs } from './eval-args.ts';
import { runDocsSuite } from './eval-docs.ts';
import { runLayoutSuite } from './eval-layout.ts';
import { runSciFact, SCIFACT_MODES } from './eval-scifact.ts';
import { runSquad2 } from './eval-squad.ts';
import { runXQuad, XQUAD_LANGUAGES } from './eval-xquad.ts';
import { log, machineInfo, round } from './util.ts';

/** Adding a suite is one line here. */
const SUITES: Record<string, Suite> = {
  scifact: { run: runSciFact, parts: SCIFACT_MODES },
  squad2: { run: runSquad2 },
  xquad: { run: runXQuad, parts: XQUAD_LANGUAGES },
  docs: { run: runDocsSuite },
  layout: { run: runLayoutSuite },
};

async function main() {
  const selection = parseEvalArgs(process.argv.slice(2), SUITES);
  const record = createRowSink(selection);
  const started = performance.now();
  const suites: Record<string, object> = {};
  for (const [name, parts] of selection.suites) {
    log(`eval: ${name}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`);
    suites[name] = await SUITES[name]!.run({ parts, record });
  }
  const report = { machine: machineInfo(), suites, seconds: round((performance.now() - started) / 1000, 1) };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`eval failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
