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
  /** The knowledge bases as they stood then (as_of). */
  asOf?: string;
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
  /** The messages a model is given: our instructions and the numbered passages, then the conversation (built here, once). */
  prompt: ChatMessage[];
  answerable: boolean;
  coverage: number;
  /** The language the question was asked in (the analyzer's detection): a refusal is written in it. */
  language: string;
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
 * A chat's grounding, in three named steps: the question the conversation asks, the retrieval with
 * it (and the prompt built from what was retrieved), and, for a model that needs no provider, the
 * answer. One unit, so that all of a chat's scoring can run in a query process (query-offload.ts)
 * while the main process only reads the request and writes the response. The answer is
 * deterministic, so it is the same wherever it was worked out.
 */
export function createChatGrounding({ analyzer, retrieval, chatModels }: ChatGroundingDeps): GroundChat {
  return async (kbs, input, { signal } = {}) => {
    const query = questionOf(analyzer, kbs, input.messages);
    const { citations, passages, answerable, coverage } = await retrieval.retrieveContextAcross(kbs, { query, filter: input.filter, ...(input.asOf && { asOf: input.asOf }) }, { signal });
    const prompt = groundedMessages(input.messages, passages);
    const language = analyzer.detectLanguage(lastUserMessage(input.messages));
    const { answer, answerMs } = answerHere(chatModels.get(input.model), { prompt, passages, input, language, signal });
    return { query, citations, passages, prompt, answerable, coverage, language, answer, answerMs };
  };
}

/** Step one: the question the conversation asks (a follow-up carries its context), read in the knowledge base's language. */
function questionOf(analyzer: Analyzer, kbs: readonly KnowledgeBaseDoc[], messages: readonly ChatMessage[]): string {
  const language = pinnedLanguage(kbs[0]!.settings) ?? analyzer.detectLanguage(lastUserMessage(messages));
  return questionFromConversation(messages, termReader((text) => analyzer.tokens(text, language)));
}

/**
 * Step three: the answer of a model that answers in this process (ChatModel.local), from the
 * prompt and the passages; none for a provider's model, which answers as the response streams, nor
 * without a passage (chat answers "not covered" itself).
 */
function answerHere(
  model: ChatModel | undefined,
  { prompt, passages, input, language, signal }: { prompt: ChatMessage[]; passages: ContextPassage[]; input: GroundingInput; language: string; signal?: AbortSignal },
): Pick<ChatGrounding, 'answer' | 'answerMs'> {
  if (!model?.local || passages.length === 0) return { answer: null, answerMs: 0 };
  const started = performance.now();
  const answer = model.local.answer({ messages: prompt, temperature: input.temperature, maxTokens: input.maxTokens, passages, language, signal });
  return { answer, answerMs: performance.now() - started };
}
