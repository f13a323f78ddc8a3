// Runs the benchmarks and prints their figures as one JSON object on stdout (progress on stderr).
//   npm run bench                 all of them
//   npm run bench -- append       only the named ones: append, command_shell, replay, http_models
//   npm run bench -- kafka_messages projector_streams kb_totals   the costs the distributed profile adds
//   npm run bench -- kafka_relay  relay events/s to a real broker (KAFKA_BROKERS; npm run kafka:up)
//   npm run bench -- python_subscriber  examples/python-subscriber's messages/s from that broker
//   npm run bench -- kafka_upload_to_ready kafka_lag_burst   the mixed profile against the embedded one, and consumer lag after a burst
//   npm run bench -- kafka_partition_pipeline   fast runs requested behind a slow one on the same partition (KAFKA_BROKERS)
//   npm run bench -- code_node_load   /healthz and another workspace's run and chat while 8 runs busy-loop in code nodes
//   npm run bench -- workflow_fairness   another workspace's run and agent chat while a noisy one has slow runs in flight
//   npm run bench -- parse_workers   PDFs to ready: one mixed-profile process, then the owner plus a parse worker
//   npm run bench -- pdf_peers     the 400-page PDF: pdf.js alone and our upload→ready, in one run
//   npm run bench -- landing_load    authenticated search and chat while 70 slow anonymous landing-page chats run
import { appendBench, commandShellBench } from './event-store.bench.ts';
import { codeNodeBench } from './code-node.bench.ts';
import { codeNodeLoadBench } from './code-node-load.bench.ts';
import { docxPagesBench } from './docx-pages.bench.ts';
import { embedderBench } from './embedder.bench.ts';
import { httpModelsBench } from './http-models.bench.ts';
import { idleMemoryBench } from './idle-memory.bench.ts';
import { ingestPdfBench, ingestSciFactBench, ocrBench } from './ingestion.bench.ts';
import { documentVersionsBench } from './document-versions.bench.ts';
import { parseFairnessBench } from './parse-fairness.bench.ts';
import { pdfEnginesBench } from './pdf-engines.bench.ts';
import { ocrLanguagesBench } from './ocr-languages.bench.ts';
import { ocrMixedScriptsBench } from './ocr-mixed-scripts.bench.ts';
import { pdfPeersBench, peersBench } from './peers.bench.ts';
import { kafkaMessagesBench } from './kafka-messages.bench.ts';
import { kafkaRelayBench } from './kafka-relay.bench.ts';
import { kafkaLagBurstBench, kafkaUploadToReadyBench } from './kafka-bus.bench.ts';
import { kafkaPartitionPipelineBench } from './kafka-partition-pipeline.bench.ts';
import { parseWorkersBench } from './parse-workers.bench.ts';
import { indexMemoryBench } from './index-memory.bench.ts';
import { kbTotalsBench } from './kb-totals.bench.ts';
import { landingLoadBench } from './landing-load.bench.ts';
import { landingPageBench } from './landing-page.bench.ts';
import { consoleCanvasBench } from './console-canvas.bench.ts';
import { consoleFirstTokenBench } from './console-first-token.bench.ts';
import { consoleBench } from './console.bench.ts';
import { conversationHistoryBench } from './conversation-history.bench.ts';
import { keywordIndexBench } from './keyword-index.bench.ts';
import { overloadBench } from './overload.bench.ts';
import { metadataFilterBench } from './metadata-filter.bench.ts';
import { projectorStreamsBench } from './projector-streams.bench.ts';
import { replayBench } from './replay.bench.ts';
import { rerankerBench } from './reranker.bench.ts';
import { publicChatBench } from './public-chat.bench.ts';
import { searchChatBench } from './search.bench.ts';
import { secretScrubBench } from './secret-scrub.bench.ts';
import { specHelperBench } from './spec-helper.bench.ts';
import { workflowBench } from './workflow.bench.ts';
import { workflowFairnessBench } from './workflow-fairness.bench.ts';
import { vectorIndexBench } from './vector-index.bench.ts';
import { vectorPrefilterBench } from './vector-prefilter.bench.ts';
import { xquadRetrievalBench } from './xquad-retrieval.ts';
import { manyKbsMemoryBench } from './many-kbs-memory.bench.ts';
import { pythonSubscriberBench } from './python-subscriber.bench.ts';
import { providerDownBench } from './provider-down.bench.ts';
import { loadAvg, log, machineInfo, round } from './util.ts';

const BENCHES = {
  append: appendBench,
  command_shell: commandShellBench,
  replay: replayBench,
  http_models: httpModelsBench,
  provider_down: providerDownBench,
  embedder: embedderBench,
  ingest_scifact: ingestSciFactBench,
  ingest_pdf: ingestPdfBench,
  document_versions: documentVersionsBench,
  ocr: ocrBench,
  parse_fairness: parseFairnessBench,
  pdf_engines: pdfEnginesBench,
  ocr_languages: ocrLanguagesBench,
  ocr_mixed_scripts: ocrMixedScriptsBench,
  peers: peersBench,
  pdf_peers: pdfPeersBench,
  keyword_index: keywordIndexBench,
  vector_index: vectorIndexBench,
  vector_prefilter: vectorPrefilterBench,
  reranker: rerankerBench,
  search_chat: searchChatBench,
  public_chat: publicChatBench,
  metadata_filter: metadataFilterBench,
  workflow: workflowBench,
  workflow_fairness: workflowFairnessBench,
  code_node: codeNodeBench,
  secret_scrub: secretScrubBench,
  code_node_load: codeNodeLoadBench,
  kafka_messages: kafkaMessagesBench,
  kafka_relay: kafkaRelayBench,
  kafka_upload_to_ready: kafkaUploadToReadyBench,
  kafka_lag_burst: kafkaLagBurstBench,
  kafka_partition_pipeline: kafkaPartitionPipelineBench,
  parse_workers: parseWorkersBench,
  projector_streams: projectorStreamsBench,
  kb_totals: kbTotalsBench,
  index_memory: indexMemoryBench,
  overload: overloadBench,
  xquad_retrieval: xquadRetrievalBench,
  conversation_history: conversationHistoryBench,
  idle_memory: idleMemoryBench,
  many_kbs_memory: manyKbsMemoryBench,
  spec_helper: specHelperBench,
  landing_page: landingPageBench,
  landing_load: landingLoadBench,
  console_first_token: consoleFirstTokenBench,
  console: consoleBench,
  console_canvas: consoleCanvasBench,
  python_subscriber: pythonSubscriberBench,
  docx_pages: docxPagesBench,
} as const;
type Name = keyof typeof BENCHES;

const ALIASES: Record<string, Name> = { commands: 'command_shell', http: 'http_models', models: 'http_models', search: 'search_chat', chat: 'search_chat' };

function selected(argv: string[]): Name[] {
  if (argv.length === 0) return Object.keys(BENCHES) as Name[];
  return argv.map((arg) => {
    const name = ALIASES[arg] ?? arg;
    if (!Object.hasOwn(BENCHES, name)) throw new Error(`unknown benchmark '${arg}'; choose from ${Object.keys(BENCHES).join(', ')}`);
    return name as Name;
  });
}

async function main() {
  const names = selected(process.argv.slice(2));
  const started = performance.now();
  const report: Record<string, unknown> = { machine: machineInfo() };
  for (const name of names) {
    log(`${name}: start`);
    const loadBefore = loadAvg();
    const result = await BENCHES[name]();
    // Other work on the machine skews every figure: the 1-minute load average says how busy it was.
    report[name] = { ...result, load_avg_1m: { before: loadBefore, after: loadAvg() } };
  }
  report.all_pass = names.every((n) => (report[n] as { pass?: boolean }).pass === true);
  report.total_seconds = round((performance.now() - started) / 1000, 1);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
