import { z } from 'zod';
import type { ContextPassage } from '../../chat/messages.ts';

/**
 * What a workflow node type is: everything the service knows about one `type`, in one descriptor
 * (see index.ts for the map and docs/how-to-add-a-node-type.md). The config schema joins the graph
 * schema (schemas/workflow.ts) and with it the OpenAPI document and schemas/json; the outputs and
 * rules drive the graph checker (graph.ts); `run` is what the runner calls.
 */
export type NodeType<T extends string = string, C extends z.ZodType<object> = z.ZodType<object>> = {
  readonly type: T;
  /** The node's `config`, as clients send it. */
  readonly config: C;
  /** The fields the node produces, i.e. what `{{node_id.field}}` may name. */
  outputs(config: z.output<C>): readonly string[];
  /** How a fault about a bad reference lists the outputs; by default "<type> outputs a, b". */
  describeOutputs?(fields: readonly string[]): string;
  /** Config fields holding `{{node_id.field}}` templates, in the order they are rendered and checked. */
  readonly templates: readonly ConfigField<C>[];
  /** Config fields naming stored things: checked to exist and, for knowledge bases, that the key may read them. */
  readonly names?: { readonly knowledgeBases?: readonly ConfigField<C>[]; readonly chatModels?: readonly ConfigField<C>[] };
  /** The node a run begins with: exactly one per graph, no incoming edges; its inputs are the run's inputs. */
  readonly entry?: true;
  /**
   * Runs in memory at once and touches nothing outside the run (a template, a condition): its start
   * is put on record with its finish instead of before it runs, saving an append (see the runner's
   * executeRun). A node that waits on anything (a model, retrieval, the network, a sandbox) is not.
   */
  readonly instant?: true;
  /** The output whose value picks the outgoing edges to take: each must carry a matching `when`. */
  readonly branchOn?: string;
  /** The values `branchOn` can take, i.e. what an outgoing edge's `when` may be (condition: true, false; a classifier: its classes). */
  branches?(config: z.output<C>): readonly (boolean | string)[];
  /**
   * Outputs that become the run's outputs; a node giving `answer` is a reply, and one giving `all`
   * (end) makes every output of its own a run output: every graph must reach one or the other.
   */
  readonly runOutputs?: { readonly answer?: string; readonly citations?: string; readonly all?: true };
  /** A config field holding a graph of its own (iteration), checked as a graph on save and run by the runner. */
  readonly subgraph?: ConfigField<C>;
  /** Produces the outputs; a failure to report as is throws NodeFailure. */
  run(node: NodeRun<z.output<C>>): NodeOutputs | Promise<NodeOutputs>;
};

type ConfigField<C extends z.ZodType<object>> = keyof z.output<C> & string;

/** Keeps a descriptor's config type while checking it against NodeType. */
export const defineNodeType = <T extends string, C extends z.ZodType<object>>(type: NodeType<T, C>): NodeType<T, C> => type;

/** May contain `{{node_id.field}}` references, rendered when the node runs. */
export const template = z.string().max(20_000);
export const modelId = z.string().min(1).max(200);

export type NodeOutputs = Record<string, unknown>;

/** What a node sees of its run: who runs it, the validated inputs, and what earlier nodes produced. */
export type RunScope = {
  workspaceId: string;
  inputs: Record<string, unknown>;
  outputs: ReadonlyMap<string, NodeOutputs>;
  /** Type of each node in the graph, so a node can tell what a reference points at. */
  nodeTypes: ReadonlyMap<string, string>;
};

/** One execution of a node: its parsed config, its run, the services it may call, and when to give up. */
export type NodeRun<Config> = { config: Config; scope: RunScope; services: NodeServices; signal: AbortSignal };

/**
 * The port through which executors reach the rest of the service, so their files stay pure: the
 * runner (src/app/workflow-engine/execute-node.ts) implements it over the same services the HTTP API uses.
 */
export interface NodeServices {
  /** Retrieval as chat retrieves (same pipeline, budget, numbering, citations); undefined when the workspace has no such knowledge base. */
  retrieve(request: RetrieveRequest, signal: AbortSignal): Promise<RetrievedContext | undefined>;
  /** The chat model of that id, the deployment's or a provider's of the run's workspace (`{provider}/{model}`); undefined when there is none. */
  chatModel(id: string): Promise<ChatCompleter | undefined>;
  /**
   * How close each text is to the query, 0–1, without a chat model: the analyzer's term overlap
   * (BM25-like, over these texts alone) blended with the offline embedder's cosine. What an offline
   * classifier compares a question with.
   */
  similarity(query: string, texts: readonly string[], signal: AbortSignal): Promise<number[]>;
  /** Runs a sub-graph (already checked on save) with these inputs to its start; its run outputs, or a NodeFailure naming the sub-node at fault. */
  runSubgraph(graph: unknown, inputs: Record<string, unknown>, signal: AbortSignal): Promise<NodeOutputs>;
  /** Runs JavaScript in the sandbox (no I/O of any kind); a fault of the code throws NodeFailure (code_error, code_timeout, code_memory, …). */
  runCode(request: CodeRequest, signal: AbortSignal): Promise<unknown>;
  /**
   * An outbound HTTP request, refused for non-public addresses (SSRF) unless the operator allows
   * them. Secret headers name secrets of the run's workspace: their values are resolved behind this
   * port and never come back, in the response or in an error.
   */
  httpRequest(request: HttpRequest, signal: AbortSignal): Promise<HttpResponse>;
}

export type CodeRequest = { code: string; inputs: Record<string, unknown>; timeoutMs: number };

export type HttpRequest = {
  workspaceId: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Header name → secret name. */
  secretHeaders: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Further attempts after a network failure or a 5xx answer. */
  retries: number;
};

export type HttpResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

export type RetrieveRequest = {
  workspaceId: string;
  knowledgeBaseId: string;
  query: string;
  topK?: number;
  scoreThreshold?: number;
  mode?: 'hybrid' | 'vector' | 'keyword' | 'graph';
  rerank?: boolean;
};

/** `language`: the query's, as the analyzer detects it (ISO 639-1). */
export type RetrievedContext = { passages: ContextPassage[]; citations: unknown[]; answerable: boolean; coverage: number; language?: string };

export interface ChatCompleter {
  /** Whether `options` reach a provider (structured output); false for the offline model, which reads none. */
  readonly passesOptions?: boolean;
  complete(request: {
    messages: { role: 'system' | 'user'; content: string }[];
    temperature?: number;
    maxTokens?: number;
    passages?: ContextPassage[];
    /** The question's language (ISO 639-1), read from the retrieval's query: a refusal's language. */
    language?: string;
    /** OpenAI request fields (response_format …) for a model that passesOptions. */
    options?: Readonly<Record<string, unknown>>;
    signal?: AbortSignal;
  }): Promise<{ content: string }>;
}

/** Thrown by an executor for a failure the run should report as is, with its own code. */
export class NodeFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The template lookup: a reference to a node that did not run (a branch not taken) renders empty. */
export const lookup =
  (scope: RunScope) =>
  (nodeId: string, field: string): unknown =>
    scope.outputs.get(nodeId)?.[field];
