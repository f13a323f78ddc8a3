import { setImmediate as nextTurn } from 'node:timers/promises';
import { countTokens } from '../../domain/document/tokens.ts';
import { splitIntoDeltas } from '../../domain/answer/deltas.ts';
import { extractAnswer } from '../../domain/answer/extract.ts';
import { rarityFromRanks } from '../../domain/answer/rarity.ts';
import type { SelectionOptions } from '../../domain/answer/selection.ts';
import { termReader } from '../../domain/answer/words.ts';
import { lastUserMessage } from '../../domain/chat/messages.ts';
import type { Analyzer } from '../../ports/analyzer.ts';
import type { ChatAnswer, ChatDelta, ChatMessage, ChatModel, ChatRequest, ChatUsage, ContextPassage, ModelInfo } from '../../ports/models.ts';
import { loadWordRanks } from './hashing-embedder.ts';

export const EXTRACTIVE_CHAT_MODEL_ID = 'kbqa-extractive';

export type ExtractiveChatModelOptions = SelectionOptions & {
  /** The service's analyzer: the answer's words are read as the keyword index reads them. */
  analyzer: Analyzer;
  wordRanks?: ReadonlyMap<string, number>;
  /** Words per streamed delta. */
  wordsPerDelta?: number;
  created?: number;
};

/**
 * A chat model that needs no download and no network: it answers by quoting the sentences of the
 * request's passages that match the question, each cited, so the service answers offline.
 * Deterministic, and `temperature` is ignored: there is no sampling to make random, and the same
 * question over the same passages should quote the same sentences.
 */
export function createExtractiveChatModel(options: ExtractiveChatModelOptions): ChatModel {
  const { analyzer, wordRanks = loadWordRanks(), wordsPerDelta = 3, created = 1_767_225_600, ...selection } = options;
  const rarity = rarityFromRanks(wordRanks);
  const model: ModelInfo = { id: EXTRACTIVE_CHAT_MODEL_ID, kind: 'chat', ownedBy: 'kbqa', created };

  const answer = (request: ChatRequest): ChatAnswer => {
    request.signal?.throwIfAborted();
    const language = analyzer.detectLanguage(languageSample(request));
    const read = termReader((text) => analyzer.tokens(text, language));
    const { content, truncated } = extractAnswer(request, { read, rarity }, selection);
    const usage: ChatUsage = { promptTokens: promptTokens(request.messages, request.passages), completionTokens: countTokens(content) };
    return { content, finishReason: truncated ? ('length' as const) : ('stop' as const), usage };
  };

  async function* replay({ content, finishReason, usage }: ChatAnswer, signal?: AbortSignal): AsyncGenerator<ChatDelta> {
    for (const delta of splitIntoDeltas(content, wordsPerDelta)) {
      // A turn of the event loop between deltas lets a client's disconnect abort the signal
      // mid-answer, as it would with a provider streaming over the network.
      await nextTurn();
      signal?.throwIfAborted();
      yield { content: delta };
    }
    signal?.throwIfAborted();
    yield { finishReason, usage };
  }

  return {
    model,
    // Tools and structured output would change what the answer is; the chat service refuses them for this model.
    passesOptions: false,
    async complete(request) {
      return answer(request);
    },
    async *stream(request) {
      yield* replay(answer(request), request.signal);
    },
    local: { answer, replay },
  };
}

/** Passages say more than a question about their language: the start of the first, else the last user message. */
function languageSample(request: ChatRequest): string {
  const passage = request.passages?.[0]?.text;
  if (passage) return passage.slice(0, 256);
  return lastUserMessage(request.messages);
}

/** What a chat format adds around each message (role and delimiters), as OpenAI bills it. */
const MESSAGE_OVERHEAD = 4;

/**
 * The prompt's size as a provider would bill it. Passages are normally rendered into the
 * messages already and counted there; one that is not adds its own tokens.
 */
function promptTokens(messages: readonly ChatMessage[], passages: readonly ContextPassage[] = []): number {
  let tokens = 0;
  for (const m of messages) tokens += countTokens(m.content) + MESSAGE_OVERHEAD;
  for (const p of passages) if (!messages.some((m) => m.content.includes(p.text))) tokens += countTokens(p.text);
  return tokens;
}
