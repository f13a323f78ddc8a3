import type { operations } from './generated/openapi.ts';

/**
 * The API's resources as they travel (snake_case, API.md). The SDK returns them unchanged, with
 * one exception SPEC.md asks for: a citation carries `text` where the API says `paragraph`.
 *
 * The resources are the answers of the API's operations as its OpenAPI document describes them
 * (generated/openapi.ts, `npm run sdk:types`), so they change with the server's schemas instead of
 * being typed again here. What stays written out is the SDK's own: its parameters, the chat results
 * it assembles from a stream, and the fields it tolerates missing from older servers.
 */

/** The JSON an operation answers with (with status 200 unless told). */
type Answer<Op extends keyof operations, Status extends keyof operations[Op]['responses'] = 200 & keyof operations[Op]['responses']> = operations[Op]['responses'][Status] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;
/** The JSON body an operation takes. */
type Body<Op extends keyof operations> = NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;
/** One item of a list answer. */
type Item<List> = List extends { data: (infer T)[] } ? T : never;

export type Page<T> = { object: 'list'; data: T[]; has_more: boolean; first_id?: string | null; last_id?: string | null };
export type ListParams = { limit?: number; after?: string; order?: 'asc' | 'desc' };
export type Deleted = { id: string; object: string; deleted: true };

export type Model = Answer<'getModel'>;

export type KnowledgeBaseSettings = KnowledgeBase['settings'];
/** What create and update accept: any part of the settings (update deep-merges it). */
export type KnowledgeBaseSettingsPatch = NonNullable<CreateKnowledgeBase['settings']>;
export type KnowledgeBase = Answer<'getKnowledgeBase'> & {
  /** Added by the SDK from the `ETag` header: pass it back as `ifMatch` for optimistic concurrency. */
  etag: string | null;
};
/** A re-index and its progress (`reindex()`'s answer, and `reindex` of a knowledge base). */
export type Reindex = Answer<'reindexKnowledgeBase', 202>;
export type CreateKnowledgeBase = Body<'createKnowledgeBase'>;
export type UpdateKnowledgeBase = Partial<CreateKnowledgeBase>;

export type Document = Answer<'getDocument'>;
export type DocumentStatus = Document['status'];
export type MetadataValue = Document['metadata'][string];
export type Chunking = NonNullable<Body<'createKnowledgeBaseDocument'>['chunking']>;
export type Chunk = Item<Answer<'listDocumentChunks'>>;
/** One line of text on its page, as fractions of the page's width and height from its top left; `start`: the line's offset in the passage text. */
export type PageBox = Chunk['boxes'][number];

type SearchBody = Body<'searchKnowledgeBase'>;
export type SearchMode = NonNullable<SearchBody['mode']>;

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
export type SearchInclude = NonNullable<SearchBody['include']>[number];

type SearchAnswer = Answer<'searchKnowledgeBase'>;
/** `knowledge_base_id` is optional: servers before multi-knowledge-base search send none. */
export type SearchResult = Omit<Item<SearchAnswer>, 'knowledge_base_id'> & Partial<Pick<Item<SearchAnswer>, 'knowledge_base_id'>>;
/** `knowledge_base_id` for a search of one knowledge base, `knowledge_base_ids` for several. */
export type SearchResponse = Page<SearchResult> &
  Pick<SearchAnswer, 'mode' | 'rerank'> &
  Partial<Pick<SearchAnswer, 'knowledge_base_id' | 'coverage' | 'answerable'> & Pick<Answer<'createSearch'>, 'knowledge_base_ids'>>;

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
  /** The span of `text` (`text.slice(start, end)`) the citing statement rests on; null when none of its sentences matches it (a loose paraphrase). */
  quote?: { text: string; start: number; end: number } | null;
};
/**
 * A passage the model was given, cited or not, as retrieved (its span the whole passage): the
 * retrieval context. `index` is its marker, so a citation with the same `index` is this passage.
 */
export type ContextPassage = Omit<Citation, 'quote'>;
/** With a knowledge base: whether it covers the question (false: the answer says so and cites nothing), and how much of it. */
export type Grounding = { answerable?: boolean; coverage?: number };
/** A citation as the API sends it (before the SDK renames `paragraph` to `text`). */
export type WireCitation = Omit<Citation, 'text' | 'heading_path' | 'char_start' | 'char_end' | 'boxes'> & { paragraph: string } & Partial<Pick<Citation, 'heading_path' | 'char_start' | 'char_end' | 'boxes'>>;

export type Message = { role: 'system' | 'developer' | 'user' | 'assistant'; content: string };
export type Usage = Answer<'createChatCompletion'>['usage'];
export type FinishReason = 'stop' | 'length';

/** The result of `query`: the answer, the passages it cites, and every passage the model was given (`context`). */
export type QueryResult = { id: string; model: string; answer: string; citations: Citation[]; context: ContextPassage[] } & Grounding;

export type ChatResult = {
  id: string;
  model: string;
  content: string;
  finish_reason: FinishReason;
  /** The passages the answer cites: one per `[n]` marker it writes, `index` being n. */
  citations: Citation[];
  /** Every passage the model was given, numbered as the prompt numbers them, cited or not. */
  context: ContextPassage[];
  usage: Usage;
  knowledge_base_id: string | null;
  /** With `knowledgeBaseIds`: the knowledge bases searched. */
  knowledge_base_ids?: string[];
} & Grounding;
/** One event of a streamed chat: the first carries `context`; the one with `finish_reason` the `citations`, then `usage` when asked for. */
export type ChatChunk = {
  id: string;
  model: string;
  /** The text this chunk adds ('' when it adds none). */
  content: string;
  finish_reason: FinishReason | null;
  /** With the finish reason: the passages the answer cites. */
  citations?: Citation[];
  /** On the first chunk: every passage the model is given. */
  context?: ContextPassage[];
  knowledge_base_id?: string | null;
  knowledge_base_ids?: string[];
  usage?: Usage | null;
};

/**
 * A node as data: any `type`, its `config` an open record, so graphs built from JSON and node types
 * newer than this SDK compile; the server checks each node against its type's schema.
 */
export type WorkflowNode = { id: string; type: string; config: Record<string, unknown>; timeout_ms?: number };
type WorkflowBody = Body<'replaceWorkflow'>;
export type WorkflowEdge = WorkflowBody['graph']['edges'][number];
export type WorkflowGraph = { nodes: WorkflowNode[]; edges: WorkflowEdge[] };
export type Workflow = Omit<Answer<'getWorkflow'>, 'graph'> & { graph: WorkflowGraph };
type WorkflowFields = Pick<WorkflowBody, 'name' | 'description'>;
export type CreateWorkflow =
  | (WorkflowFields & { graph: WorkflowGraph })
  | (WorkflowFields & { template: 'knowledge-qa'; knowledge_base_id: string; model?: string });
export type ReplaceWorkflow = WorkflowFields & { graph: WorkflowGraph };
export type WorkflowVersion = Omit<Answer<'listWorkflowVersions'>['data'][number], 'graph'> & { graph: WorkflowGraph };
export type WorkflowValidation = Answer<'validateWorkflow'>;
export type WorkflowTrace = Answer<'getWorkflowRunTrace'>;
export type WorkflowNodeRun = Answer<'runWorkflowNode'>;
/** Which version runs: the draft, the published one, or a number (by default the published one, else the draft). */
export type WorkflowVersionRequest = 'draft' | 'published' | number;

export type WorkflowRunStatus = WorkflowRun['status'];
export type ResponseMode = NonNullable<Body<'runWorkflow'>['response_mode']>;
/** `outputs` as a knowledge-QA workflow fills them: its answer and the citations it rests on. */
export type WorkflowRun = Omit<Answer<'getWorkflowRun'>, 'outputs'> & {
  outputs: ({ answer?: string; citations?: WireCitation[] } & Record<string, unknown>) | null;
};

/** A server-sent event: `event` is its name (`message` when unnamed), `data` its parsed JSON. */
export type ServerEvent<T = Record<string, unknown>> = { event: string; data: T };

/** A conversation kept by the server (OpenAI's Conversation object). */
export type Conversation = Answer<'getConversation'>;
export type ConversationItem = Item<Answer<'listConversationItems'>>;
/** A citation of an answer stored in a conversation, in the shape of OpenAI's file_citation. */
export type ConversationAnnotation = NonNullable<ConversationItem['content'][number]['annotations']>[number];
/** An item to add: a message whose content is a string or text parts. */
export type ConversationItemInput = Body<'createConversationItems'>['items'][number];
export type FeedbackParams = Body<'createChatCompletionFeedback'>;
export type Feedback = Answer<'createChatCompletionFeedback', 201>;

/** An agent: its draft, and which version its landing page and `model: "agt_…"` answer from. */
export type Agent = Answer<'getAgent'>;
export type CreateAgent = Body<'createAgent'>;
/** Any subset of the draft's fields; `public.access_code: null` removes the code. */
export type UpdateAgent = Body<'updateAgent'>;
export type AgentPublication = Answer<'publishAgent'>;
export type AgentVersion = Answer<'listAgentVersions'>['data'][number];
