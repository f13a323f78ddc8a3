import { DEFAULT_TIMEOUT_MS, type WorkflowGraph } from '../../../schemas/workflow.ts';

/**
 * The graph of a workflow created with neither a graph nor a template: a start node asking for
 * `question`, and a reply that repeats it. The smallest graph that saves and runs (a graph needs a
 * start and a reply it reaches), so the canvas, and an SDK user's `create({ name })`, begin from
 * the node every workflow needs instead of an empty page.
 */
export function defaultGraph(): WorkflowGraph {
  const timeout_ms = DEFAULT_TIMEOUT_MS;
  return {
    nodes: [
      { id: 'start', type: 'start', timeout_ms, config: { inputs: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'reply', type: 'direct_reply', timeout_ms, config: { template: '{{start.question}}' } },
    ],
    edges: [{ from: 'start', to: 'reply' }],
  };
}
