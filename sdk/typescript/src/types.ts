/**
 * The API's resources as they travel (snake_case, API.md). The SDK returns them unchanged, with
 * one exception SPEC.md asks for: a citation carries `text` where the API says `paragraph`.
 */

export type Page<T> = { object: 'list'; data: T[]; has_more: boolean; first_id?: string | null; last_id?: string | null };
export type ListParams = { limit?: number; after?: string; order?: 'asc' | 'desc' };
export type Deleted = { id: string; object: string; deleted: true };

export type Model = { id: string; object: 'model'; created: number; owned_by: string };

export type KnowledgeBaseSettings = {
  embedding_model: string;
  top_k: number;
  score_threshold: number;
  recall: { vector: boolean; keyword: boolean; graph: boolean };
  rerank: { enabled: boolean; model: string | null };
  chunking: { max_tokens: number; overlap_tokens: number };
  /** ISO 639-1 code keyword search analyses texts in, or 'auto' to detect it. */
  language: string;
};
/** What create and update accept: any part of the settings (update deep-merges it). */
export type KnowledgeBaseSettingsPatch = {
  [K in keyof KnowledgeBaseSettings]?: KnowledgeBaseSettings[K] extends object ? Partial<KnowledgeBaseSettings[K]> : KnowledgeBaseSettings[K];
};
export type KnowledgeBase = {
  id: string;
  object: 'knowledge_base';
  name: string;
  description: string | null;
  settings: KnowledgeBaseSettings;
  document_count: number;
  chunk_count: number;
  created_at: string;
  updated_at: string;
  /** Added by the SDK from the `ETag` header: pass it back as `ifMatch` for optimistic concurrency. */
  etag: string | null;
};
export type CreateKnowledgeBase = { name: string; description?: string | null; settings?: KnowledgeBaseSettingsPatch };
export type UpdateKnowledgeBase = Partial<CreateKnowledgeBase>;

export type DocumentStatus = 'queued' | 'parsing' | 'indexing' | 'ready' | 'failed';
export type MetadataValue = string | number | boolean;
export type Chunking = { max_tokens?: number; overlap_tokens?: number };
export type Document = {
  id: string;
  object: 'document';
  knowledge_base_id: string;
  name: string;
  media_type: string;
  size_bytes: number;
  sha256: string;
  status: DocumentStatus;
  metadata: Record<string, MetadataValue>;
  /** The email this document was attached to (attachments become documents of their own); null for an uploaded file. */
  parent_document_id: string | null;
  page_count: number | null;
  /** True when page_count and chunk pages are estimated (the file does not say where its pages break). */
  page_estimated: boolean;
  chunk_count: number | null;
  ocr_pages: number[];
  warnings: string[];
  error: { stage: string; code: string; message: string } | null;
  timings: { parse_ms: number | null; index_ms: number | null; parsing_started_at: string | null; parsed_at: string | null; indexed_at: string | null };
  created_at: string;
  updated_at: string;
};
/** One line of text on its page, as fractions of the page's width and height from its top left; `start`: the line's offset in the passage text. */
export type PageBox = { x0: number; y0: number; x1: number; y1: number; start: number };

export type Chunk = {
  id: string;
  object: 'chunk';
  document_id: string;
  index: number;
  source: string;
  page: number;
  paragraph: string;
  heading_path: string[];
  char_start: number;
  char_end: number;
  token_count: number;
  /** The chunk's lines on `page`; empty for formats without page layout (Word, text, spreadsheets …). */
  boxes: PageBox[];
};

export type SearchMode = 'hybrid' | 'vector' | 'keyword' | 'graph';

/**
 * OpenAI's vector-store filter grammar over document metadata: a comparison or `and`/`or` over
 * filters, nested. Numbers compare numerically, strings by code unit; a document without the key
 * meets only `ne` and `nin`.
 */
export type MetadataFilter =
  | { type: 'eq' | 'ne'; key: string; value: MetadataValue }
  | { type: 'gt' | 'gte' | 'lt' | 'lte'; key: string; value: string | number }
  | { type: 'in' | 'nin'; key: string; value: MetadataValue[] }
  | { type: 'and' | 'or'; filters: MetadataFilter[] };
/** A search or chat filter: the grammar, or the older document ids and metadata equalities. */
export type SearchFilter = MetadataFilter | { documentIds?: string[]; metadata?: Record<string, MetadataValue | MetadataValue[]> };

/** What a search result may carry beyond its ids, source, page and score (SearchOptions.include). */
export type SearchInclude = 'paragraph' | 'heading_path' | 'boxes' | 'scores' | 'coverage_terms';

export type SearchResult = {
  object: 'search_result';
  chunk_id: string;
  document_id: string;
  /** The knowledge base of the document (servers before multi-knowledge-base search send none). */
  knowledge_base_id?: string;
  source: string;
  page: number;
  /** The passage, unless the search's `include` leaves it out (likewise heading_path and boxes). */
  paragraph?: string;
  heading_path?: string[];
  /** The chunk's lines on `page`; empty for formats without page layout. */
  boxes?: PageBox[];
  score: number;
  scores?: { vector: number | null; keyword: number | null; graph: number | null; fused: number | null; rerank: number | null };
};
/** `knowledge_base_id` for a search of one knowledge base, `knowledge_base_ids` for several. */
export type SearchResponse = Page<SearchResult> & { knowledge_base_id?: string; knowledge_base_ids?: string[]; mode: SearchMode; rerank: boolean; coverage?: number; answerable?: boolean };

/** A cited passage: `source` is the document's file name, `page` is 1-based, `text` the passage. */
export type Citation = {
  index: number;
  source: string;
  page: number;
  text: string;
  document_id: string;
  /** The knowledge base of the document (servers before multi-knowledge-base chat send none). */
  knowledge_base_id?: string;
  chunk_id: string;
  score: number;
  /** Titles of the headings the passage sits under, outermost first. */
  heading_path: string[];
  /** The span the citation points at, as offsets in the page's text (as chunks' char_start count): the quote's when there is one, else the whole passage. */
  char_start: number;
  char_end: number;
  /** Where that span sits on `page`: one box per line (see PageBox); empty for formats without page layout. */
  boxes: PageBox[];
  /** The span of `text` (`text.slice(start, end)`) the answer rests on; null when the answer does not cite this passage. */
  quote?: { text: string; start: number; end: number } | null;
};
/** With a knowledge base: whether it covers the question (false: the answer says so and cites nothing), and how much of it. */
export type Grounding = { answerable?: boolean; coverage?: number };
/** A citation as the API sends it (before the SDK renames `paragraph` to `text`). */
export type WireCitation = Omit<Citation, 'text' | 'heading_path' | 'char_start' | 'char_end' | 'boxes'> & { paragraph: string } & Partial<Pick<Citation, 'heading_path' | 'char_start' | 'char_end' | 'boxes'>>;

export type Message = { role: 'system' | 'developer' | 'user' | 'assistant'; content: string };
export type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };
export type FinishReason = 'stop' | 'length';

/** The result of `query`: the answer and the passages it cites. */
export type QueryResult = { id: string; model: string; answer: string; citations: Citation[] } & Grounding;

export type ChatResult = {
  id: string;
  model: string;
  content: string;
  finish_reason: FinishReason;
  citations: Citation[];
  usage: Usage;
  knowledge_base_id: string | null;
  /** With `knowledgeBaseIds`: the knowledge bases searched. */
  knowledge_base_ids?: string[];
} & Grounding;
/** One event of a streamed chat: the first carries `citations`; the last ones `finish_reason`, then `usage` when asked for. */
export type ChatChunk = {
  id: string;
  model: string;
  /** The text this chunk adds ('' when it adds none). */
  content: string;
  finish_reason: FinishReason | null;
  citations?: Citation[];
  knowledge_base_id?: string | null;
  knowledge_base_ids?: string[];
  usage?: Usage | null;
};

export type WorkflowNode = { id: string; type: string; config: Record<string, unknown>; timeout_ms?: number };
export type WorkflowEdge = { from: string; to: string; when?: boolean };
export type WorkflowGraph = { nodes: WorkflowNode[]; edges: WorkflowEdge[] };
export type Workflow = {
  id: string;
  object: 'workflow';
  name: string;
  description: string | null;
  graph: WorkflowGraph;
  version: number;
  created_at: string;
  updated_at: string;
};
export type CreateWorkflow =
  | { name: string; description?: string | null; graph: WorkflowGraph }
  | { name: string; description?: string | null; template: 'knowledge-qa'; knowledge_base_id: string; model?: string };
export type ReplaceWorkflow = { name: string; description?: string | null; graph: WorkflowGraph };

export type WorkflowRunStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type ResponseMode = 'blocking' | 'streaming' | 'async';
export type WorkflowRun = {
  id: string;
  object: 'workflow_run';
  workflow_id: string;
  workflow_version: number;
  status: WorkflowRunStatus;
  inputs: Record<string, unknown>;
  outputs: ({ answer?: string; citations?: WireCitation[] } & Record<string, unknown>) | null;
  node_runs: Record<string, unknown>[];
  error: { code: string; message: string; node_id: string | null } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  elapsed_ms: number | null;
};

/** A server-sent event: `event` is its name (`message` when unnamed), `data` its parsed JSON. */
export type ServerEvent<T = Record<string, unknown>> = { event: string; data: T };

/** A conversation kept by the server (OpenAI's Conversation object). */
export type Conversation = { id: string; object: 'conversation'; created_at: number; metadata: Record<string, string> };
/** A citation of an answer stored in a conversation, in the shape of OpenAI's file_citation. */
export type ConversationAnnotation = { type: 'file_citation'; file_id: string; filename: string; index: number; knowledge_base_id?: string; chunk_id?: string; page?: number };
export type ConversationItem = {
  type: 'message';
  id: string;
  role: 'user' | 'assistant' | 'system' | 'developer';
  status: 'completed';
  content: { type: 'input_text' | 'output_text'; text: string; annotations?: ConversationAnnotation[] }[];
};
/** An item to add: a message whose content is a string or text parts. */
export type ConversationItemInput = { type?: 'message'; role: ConversationItem['role']; content: string | { type: 'input_text' | 'output_text'; text: string }[] };
export type FeedbackParams = { rating: 'up' | 'down'; comment?: string };
export type Feedback = {
  id: string;
  object: 'chat.completion.feedback';
  chat_completion_id: string;
  rating: 'up' | 'down';
  comment: string | null;
  conversation_id?: string;
  item_id?: string;
  created_at: number;
};
