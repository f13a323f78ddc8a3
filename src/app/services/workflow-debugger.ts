import type { z } from 'zod';
import { WorkflowGraph } from '../../../schemas/workflow.ts';
import { validateGraph } from '../../domain/workflow/graph.ts';
import { nodeType } from '../../domain/workflow/nodes/index.ts';
import type { NodeOutputs, RunScope } from '../../domain/workflow/nodes/node-type.ts';
import { workflowRunDecider } from '../../domain/workflow/run.ts';
import { traceOf } from '../../domain/workflow/trace.ts';
import type { VersionRequest } from '../../domain/workflow/versions.ts';
import { ApiError } from '../../ports/api-error.ts';
import type { AppContext } from '../context.ts';
import { badRequest, resourceNotFound } from '../errors.ts';
import { executeNode, renderedInputs } from '../workflow-engine/execute-node.ts';
import type { EngineDeps } from '../workflow-engine/types.ts';
import type { Principal } from './principal.ts';
import type { WorkflowService } from './workflows.ts';

/** One fault of a graph as the canvas shows it: on the node at fault (null: the graph as a whole). */
export type GraphProblem = { node_id: string | null; code: string; message: string; param: string };

/**
 * What the workflow debugger serves beside runs: the trace of a run (every node attempt), one
 * node run alone with inputs the caller gives, and a graph's faults, all at once, before saving.
 */
export function createWorkflowDebugger({ ctx, workflows, engine }: { ctx: AppContext; workflows: WorkflowService; engine: EngineDeps }) {
  return {
    async trace(principal: Principal, runId: string) {
      await workflows.run(principal, runId);
      const streamId = workflowRunDecider.streamId(runId);
      const events = (await ctx.store.readStream(streamId)).filter((event) => workflowRunDecider.isEvent(event));
      return { object: 'list' as const, data: traceOf(events) };
    },

    /**
     * Runs one node of the workflow's draft (or the version asked for) with `inputs`: for each
     * earlier node it references, the outputs to assume (`{node_id: {field: value}}`; the start
     * node's are the run's inputs). Nothing is recorded: it is a rehearsal, not a run. Its effects
     * are real (an http_request node sends its request), so the route needs the write scope.
     */
    async runNode(principal: Principal, workflowId: string, nodeId: string, request: { inputs: Record<string, Record<string, unknown>>; version?: VersionRequest }) {
      const graph = await workflows.graphFor(principal, workflowId, request.version ?? 'draft');
      const node = graph.nodes.find((n) => n.id === nodeId);
      if (!node) throw resourceNotFound('node', nodeId);
      const ids = new Set(graph.nodes.map((n) => n.id));
      const stranger = Object.keys(request.inputs).find((id) => !ids.has(id));
      if (stranger !== undefined) throw badRequest('node_not_found', `inputs.${stranger}: the workflow has no node '${stranger}'; give outputs of the nodes ${[...ids].join(', ')}`, `inputs.${stranger}`);
      const start = graph.nodes.find((n) => nodeType(n.type).entry);
      const outputs = new Map<string, NodeOutputs>(Object.entries(request.inputs));
      const scope: RunScope = { workspaceId: principal.workspaceId, inputs: (start && request.inputs[start.id]) ?? {}, outputs, nodeTypes: new Map(graph.nodes.map((n) => [n.id, n.type])) };
      const inputs = nodeType(node.type).entry ? scope.inputs : renderedInputs(node, scope);
      const t0 = performance.now();
      const result = await executeNode(node, scope, engine);
      const elapsed_ms = Math.round((performance.now() - t0) * 100) / 100;
      return {
        object: 'workflow_node_run' as const,
        node_id: node.id,
        node_type: node.type,
        status: result.ok ? ('succeeded' as const) : ('failed' as const),
        inputs,
        outputs: result.ok ? result.outputs : null,
        error: result.ok ? null : { code: result.code, message: result.message },
        elapsed_ms,
      };
    },

    /** Every fault of a graph, each on its node: the schema's, the graph's, then the first model it names that is not here. */
    async validate(principal: Principal, graph: unknown) {
      const problems = await problemsOf(principal, graph);
      return { object: 'workflow_validation' as const, valid: problems.length === 0, errors: problems };
    },
  };

  async function problemsOf(principal: Principal, candidate: unknown): Promise<GraphProblem[]> {
    const parsed = WorkflowGraph.safeParse(candidate);
    if (!parsed.success) return parsed.error.issues.map((issue) => schemaProblem(candidate, issue));
    const faults = validateGraph(parsed.data).map((fault) => ({
      node_id: fault.node,
      code: `invalid_graph_${fault.code}`,
      message: fault.message,
      param: fault.node === null ? 'graph' : `graph.nodes.${fault.node}`,
    }));
    try {
      await workflows.checkReferences(principal, parsed.data);
    } catch (error) {
      // A knowledge base the key may not use, or that is not there, answers as saving would (403,
      // 404): the same rule on every route. What the client can fix in the graph is a fault.
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      const param = error.param ?? 'graph';
      faults.push({ node_id: /^graph\.nodes\.([^.]+)/.exec(param)?.[1] ?? null, code: error.code, message: error.message, param });
    }
    return faults;
  }
}

/** A schema issue named by node id rather than position: `graph.nodes.retrieve.config.top_k`. */
function schemaProblem(candidate: unknown, issue: z.core.$ZodIssue): GraphProblem {
  const [list, index, ...rest] = issue.path;
  const nodes = typeof candidate === 'object' && candidate !== null && 'nodes' in candidate && Array.isArray(candidate.nodes) ? (candidate.nodes as unknown[]) : [];
  const node = list === 'nodes' && typeof index === 'number' ? nodes[index] : undefined;
  const id = typeof node === 'object' && node !== null && 'id' in node && typeof node.id === 'string' ? node.id : null;
  const path = id === null ? issue.path : ['nodes', id, ...rest];
  const param = ['graph', ...path.map(String)].join('.');
  return { node_id: id, code: 'invalid_field', message: `${param}: ${issue.message}`, param };
}

export type WorkflowDebugger = ReturnType<typeof createWorkflowDebugger>;
