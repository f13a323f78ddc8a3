import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import { pinnedLanguage } from '../../../schemas/knowledge-base-settings.ts';
import { questionFromConversation } from '../../domain/answer/question.ts';
import { termReader } from '../../domain/answer/words.ts';
import { lastUserMessage } from '../../domain/chat/messages.ts';
import { groundedMessages } from '../../domain/chat/prompt.ts';
import type { Analyzer } from '../../ports/analyzer.ts';
import type { ChatAnswer, ChatMessage, ChatModel, ContextPassage } from '../../ports/models.ts';
import type { Citation } from '../retrieval/retrieved-context.ts';
import type { RetrievalRequest } from '../retrieval/options.ts';
import type { createRetrieval } from '../retrieval/retrieval.ts';

export type GroundingInput = {
  messages: ChatMessage[];
  filter?: RetrievalRequest['filter'];
  /** The chat model's id: one that answers in this process (ChatModel.local) answers here too. */
  model: string;
  temperature?: number;
  maxTokens?: number;
};

/** What a chat over knowledge bases stands on, worked out before its response starts. */
export type ChatGrounding = {
  /** What retrieval searched for: the question the conversation asks, not just its last line. */
  query: string;
  citations: Citation[];
  passages: ContextPassage[];
  answerable: boolean;
  coverage: number;
  /** The answer of a model that answers in this process, given passages; null for a provider's model, or with no passage. */
  answer: ChatAnswer | null;
  /** What working out `answer` took, so that a chat's record keeps retrieval and answer apart. */
  answerMs: number;
};

export type GroundChat = (kbs: readonly KnowledgeBaseDoc[], input: GroundingInput, options?: { signal?: AbortSignal }) => Promise<ChatGrounding>;

export type ChatGroundingDeps = {
  /** Reads the conversation's words as the keyword index does, to carry a follow-up's context into its query. */
  analyzer: Analyzer;
  retrieval: Pick<ReturnType<typeof createRetrieval>, 'retrieveContextAcross'>;
  chatModels: ReadonlyMap<string, ChatModel>;
};

/**
 * A chat's question, its retrieval and, for a model that needs no provider, its answer: one unit,
 * so that all of a chat's scoring can run in a query process (query-offload.ts) while the main
 * process only reads the request and writes the response. The answer is deterministic, so it is
 * the same wherever it was worked out.
 */
export function createChatGrounding({ analyzer, retrieval, chatModels }: ChatGroundingDeps): GroundChat {
  return async (kbs, input, { signal } = {}) => {
    const language = pinnedLanguage(kbs[0]!.settings) ?? analyzer.detectLanguage(lastUserMessage(input.messages));
    const query = questionFromConversation(input.messages, termReader((text) => analyzer.tokens(text, language)));
    const { citations, passages, answerable, coverage } = await retrieval.retrieveContextAcross(kbs, { query, filter: input.filter }, { signal });
    const local = chatModels.get(input.model)?.local;
    if (!local || passages.length === 0) return { query, citations, passages, answerable, coverage, answer: null, answerMs: 0 };
    const started = performance.now();
    const answer = local.answer({ messages: groundedMessages(input.messages, passages), temperature: input.temperature, maxTokens: input.maxTokens, passages, signal });
    return { query, citations, passages, answerable, coverage, answer, answerMs: performance.now() - started };
  };
}
