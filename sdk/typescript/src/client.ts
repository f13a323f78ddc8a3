import { KbqaError } from './errors.ts';
import { createTransport, type RetryInfo, type Transport } from './http.ts';
import { chatResource, type ChatResource, type QueryOptions } from './resources/chat.ts';
import { conversationsResource, type ConversationsResource } from './resources/conversations.ts';
import { documentsResource, type DocumentsResource } from './resources/documents.ts';
import { knowledgeBasesResource, type KnowledgeBasesResource } from './resources/knowledge-bases.ts';
import { modelsResource, type ModelsResource } from './resources/models.ts';
import { agentsResource, type AgentsResource } from './resources/agents.ts';
import { workflowsResource, type RunOptions, type WorkflowsResource } from './resources/workflows.ts';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.ts';
import { filterBody } from './citations.ts';
import type { QueryResult, SearchFilter, SearchInclude, SearchMode, SearchResponse, WorkflowRun } from './types.ts';
import { VERSION } from './version.ts';

export const DEFAULT_BASE_URL = 'http://localhost:2678/v1';

export type ClientOptions = {
  /** The API root: the cloud `{base_url}` or `http://{host}:2678/v1`; `/v1` is appended when missing. Else `KBQA_BASE_URL`, else localhost. */
  baseUrl?: string;
  /** Else `KBQA_API_KEY`. */
  apiKey?: string;
  /** Per attempt, until the response (for streams: until its headers). 60 s by default. */
  timeoutMs?: number;
  /** Retries after a 429 (any call) or a 5xx or lost connection (idempotent calls). 3 by default. */
  maxRetries?: number;
  /** Finer control of the backoff. */
  retry?: Partial<RetryPolicy>;
  /** The model of `query` and `chat` when a call names none (`kbqa-extractive`, always served). */
  defaultModel?: string;
  /** Called before each retry, after the failed attempt (for logs and tests). */
  onRetry?: (info: RetryInfo) => void;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
};

export type SearchOptions = {
  topK?: number;
  scoreThreshold?: number;
  mode?: SearchMode;
  rerank?: boolean;
  /** The grammar (`{ type: 'and', filters: [{ type: 'gt', key: 'year', value: 2020 }, …] }`) or `{ documentIds, metadata }`. */
  filter?: SearchFilter;
  /** Adds every stage's score to each result. */
  explain?: boolean;
  /**
   * The optional parts to send: `[]` for ids, source, page and score only (about 220 bytes a
   * result instead of 2.3 KB with a 512-token passage); add 'paragraph', 'heading_path', 'boxes', 'scores', 'coverage_terms'
   * as needed. Without it: the passage parts, and the explain data with `explain`.
   */
  include?: SearchInclude[];
  signal?: AbortSignal;
};

type Env = Record<string, string | undefined>;
const processEnv = (): Env => (globalThis as { process?: { env?: Env } }).process?.env ?? {};
const runtime = (): string => {
  const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  return node ? ` node/${node}` : '';
};

/** `https://host/v1/` and `https://host` both become `https://host/v1`. */
export function normaliseBaseUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

/** A client of the KBQA API. Without options it reads `KBQA_BASE_URL` and `KBQA_API_KEY`. */
export class Kbqa {
  readonly baseUrl: string;
  readonly models: ModelsResource;
  readonly knowledgeBases: KnowledgeBasesResource;
  readonly documents: DocumentsResource;
  readonly chat: ChatResource;
  readonly conversations: ConversationsResource;
  readonly workflows: WorkflowsResource;
  readonly agents: AgentsResource;
  readonly #transport: Transport;

  constructor(options: ClientOptions = {}) {
    const env = processEnv();
    const apiKey = options.apiKey ?? env.KBQA_API_KEY;
    if (!apiKey) throw new KbqaError('No API key: pass { apiKey } or set KBQA_API_KEY.');
    this.baseUrl = normaliseBaseUrl(options.baseUrl ?? env.KBQA_BASE_URL ?? DEFAULT_BASE_URL);
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new KbqaError('No fetch here: pass { fetch } (Node 18+ and browsers have one).');
    this.#transport = createTransport({
      baseUrl: this.baseUrl,
      apiKey,
      timeoutMs: options.timeoutMs ?? 60_000,
      retry: { ...DEFAULT_RETRY, ...options.retry, ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }) },
      userAgent: `kbqa-sdk-typescript/${VERSION}${runtime()}`,
      fetch: (input, init) => fetchImpl(input, init),
      onRetry: options.onRetry,
    });
    this.models = modelsResource(this.#transport);
    this.knowledgeBases = knowledgeBasesResource(this.#transport);
    this.documents = documentsResource(this.#transport);
    this.chat = chatResource(this.#transport, options.defaultModel ?? 'kbqa-extractive');
    this.conversations = conversationsResource(this.#transport);
    this.workflows = workflowsResource(this.#transport);
    this.agents = agentsResource(this.#transport);
  }

  /** Asks a knowledge base (or several: an array) a question: `{answer, citations: [{source, page, text, knowledge_base_id, …}], context}` (citations: what the answer cites; context: every passage it was given). */
  query(knowledgeBaseId: string | string[], question: string, options: QueryOptions = {}): Promise<QueryResult> {
    return this.chat.query(knowledgeBaseId, question, options);
  }

  /** Runs a workflow with its inputs; resolves with the run (see RunOptions for the modes). */
  runWorkflow(workflowId: string, inputs: Record<string, unknown> = {}, options: RunOptions = {}): Promise<WorkflowRun> {
    return this.workflows.run(workflowId, inputs, options);
  }

  /**
   * Retrieval only: the knowledge base's best passages for a query, with scores. An array of ids
   * searches them all (`POST /v1/search`), each result naming its `knowledge_base_id`.
   */
  async search(knowledgeBaseId: string | string[], query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const { filter, signal } = options;
    const json = {
      query,
      ...(options.topK !== undefined && { top_k: options.topK }),
      ...(options.scoreThreshold !== undefined && { score_threshold: options.scoreThreshold }),
      ...(options.mode !== undefined && { mode: options.mode }),
      ...(options.rerank !== undefined && { rerank: options.rerank }),
      ...(options.explain !== undefined && { explain: options.explain }),
      ...(options.include !== undefined && { include: options.include }),
      ...(filter && { filter: filterBody(filter) }),
      ...(Array.isArray(knowledgeBaseId) && { knowledge_base_ids: knowledgeBaseId }),
    };
    const path = Array.isArray(knowledgeBaseId) ? '/search' : `/knowledge-bases/${encodeURIComponent(knowledgeBaseId)}/search`;
    // Search changes nothing on the server, so a 5xx may be retried like a GET.
    return (await this.#transport.json<SearchResponse>({ method: 'POST', path, json, idempotent: true, signal })).body;
  }
}
