import type { WorkflowGraph, WorkflowNode } from '../../schemas/workflow.ts';
import { type Citation, quotedCitations } from '../../src/app/retrieval/retrieved-context.ts';
import { executeNode, renderedInputs } from '../../src/app/workflow-engine/execute-node.ts';
import { type EngineDeps, lookup, type NodeOutputs, type NodeResult, type RunScope } from '../../src/app/workflow-engine/types.ts';
import { templateFields, topologicalOrder } from '../../src/domain/workflow/graph.ts';
import { MAX_RUN_RECORDED_BYTES, recordedBytes } from '../../src/domain/workflow/limits.ts';
import { nodeType, REPLY_TYPES } from '../../src/domain/workflow/nodes/index.ts';
import type { WorkflowRunState } from '../../src/domain/workflow/run.ts';
import { render } from '../../src/domain/workflow/templates.ts';
import { isLive, runOutputsOf } from '../../src/domain/workflow/walk.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';
import type { RunWriter } from './run-commands.ts';

type Run = Exclude<WorkflowRunState, { status: 'absent' }>;
export type RunnerDeps = EngineDeps;

/** Which node is executing, so an unexpected error can name it when the run fails. */
export type Progress = { nodeId: string | null };

/**
 * A run as the runner found it in its stream, and the writer that appends to that stream from
 * there; `reused`: the outputs an earlier run recorded for the nodes this one takes over (a run
 * from a chosen node), by node id.
 */
export type RunRecord = { runId: string; run: Run; history: readonly RecordedEvent[]; write: RunWriter; reused?: ReadonlyMap<string, NodeOutputs> };

/**
 * Walks the graph in topological order. A node already finished in the run's stream is not run
 * again: its outputs come from the stream, which is what makes a redelivered request or a resumed
 * run execute each node once. The run's outputs are those its node types declare as runOutputs
 * (walk.ts); without an answer or an end the run fails.
 *
 * What is recorded is put on record only when it must be: before a node that takes time runs (so
 * a live trace shows it running, and a crash shows where the run stopped), and when the run ends.
 * An instant node's start and finish join the next append: a crash before it only runs that node
 * again, which has no effect outside the run.
 */
export async function executeRun(deps: RunnerDeps, { runId, run, history, write, reused }: RunRecord, graph: WorkflowGraph, progress: Progress) {
  write.queue({ type: 'StartRun', data: { run_id: runId } });
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  const outputs = new Map<string, NodeOutputs>();
  const scope: RunScope = { workspaceId: run.workspaceId, inputs: run.inputs, outputs, nodeTypes: new Map(graph.nodes.map((n) => [n.id, n.type])) };
  const recorded = run.nodes;
  // What the run has put on record so far (outputs and traced inputs): bounded, as its stream and read model are.
  let runBytes = 0;

  for (const id of topologicalOrder(graph)) {
    const node = nodes.get(id)!;
    if (!isLive(node, graph, outputs)) continue;
    const previous = recorded[id];
    if (previous?.status === 'failed') {
      const error = failureOf(history, id);
      return write.flush({ type: 'FailRun', data: { run_id: runId, error: { ...error, node_id: id } } });
    }
    let result: NodeOutputs;
    const earlier = reused?.get(id);
    const type = nodeType(node.type);
    if (previous?.status === 'succeeded' && previous.outputs) {
      result = previous.outputs;
      runBytes += recordedBytes(result);
    } else if (earlier && run.reuse) {
      // Recorded as a step of this run (its trace shows where the outputs came from), not run again.
      const inputs = type.entry ? run.inputs : renderedInputs(node, scope);
      write.queue({ type: 'StartNode', data: { run_id: runId, node_id: id, node_type: node.type, inputs, reused_from: run.reuse.run_id } });
      write.queue({ type: 'CompleteNode', data: { run_id: runId, node_id: id, outputs: earlier, elapsed_ms: 0 } });
      result = earlier;
      runBytes += recordedBytes(inputs) + recordedBytes(result);
    } else {
      progress.nodeId = id;
      const inputs = type.entry ? run.inputs : renderedInputs(node, scope);
      write.queue({ type: 'StartNode', data: { run_id: runId, node_id: id, node_type: node.type, inputs } });
      if (!type.instant) await write.flush();
      const t0 = performance.now();
      runBytes += recordedBytes(inputs);
      const outcome = withinRunLimit(await executeNode(node, scope, deps), runBytes, id);
      const elapsed_ms = Math.round((performance.now() - t0) * 100) / 100;
      if (!outcome.ok) {
        const error = { code: outcome.code, message: outcome.message };
        write.queue({ type: 'FailNode', data: { run_id: runId, node_id: id, error, elapsed_ms } });
        return write.flush({ type: 'FailRun', data: { run_id: runId, error: { ...error, node_id: id } } });
      }
      result = outcome.outputs;
      runBytes += outcome.bytes;
      write.queue({ type: 'CompleteNode', data: { run_id: runId, node_id: id, outputs: result, elapsed_ms } });
      progress.nodeId = null;
    }
    outputs.set(id, result);
  }

  const runOutputs = runOutputsOf(graph, outputs);
  if (runOutputs === undefined) {
    const error = { code: 'no_reply', message: `no ${REPLY_TYPES} node was reached on the branches this run took`, node_id: null };
    return write.flush({ type: 'FailRun', data: { run_id: runId, error } });
  }
  // A retrieval's citations, pointed at the spans the answer quotes: the same objects chat gives.
  const { answer, citations } = runOutputs;
  if (Array.isArray(citations) && typeof answer === 'string') runOutputs.citations = quotedCitations(citations as Citation[], answer);
  return write.flush({ type: 'CompleteRun', data: { run_id: runId, outputs: runOutputs } });
}

/** The node's outcome as the run records it: run_too_large when its outputs would take the run past MAX_RUN_RECORDED_BYTES. */
function withinRunLimit(outcome: NodeResult, runBytes: number, nodeId: string): NodeResult {
  if (!outcome.ok || runBytes + outcome.bytes <= MAX_RUN_RECORDED_BYTES) return outcome;
  const total = runBytes + outcome.bytes;
  return { ok: false, code: 'run_too_large', message: `with node '${nodeId}' the run's recorded outputs and inputs came to ${total} bytes as JSON; a run may record at most ${MAX_RUN_RECORDED_BYTES} bytes` };
}

/** A node that failed before a crash kept its reason only in its event. */
function failureOf(history: readonly RecordedEvent[], nodeId: string): { code: string; message: string } {
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i]!;
    if (event.type === 'NodeRunFailed' && event.data.node_id === nodeId) return event.data.error;
  }
  return { code: 'node_failed', message: `node '${nodeId}' failed` };
}
