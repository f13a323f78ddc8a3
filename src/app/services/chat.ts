import type { AgentConfig } from '../../../schemas/events/agent.ts';
import { withAgentRetrieval } from '../../domain/agent/retrieval.ts';
import { chatDecider } from '../../domain/chat/chat.ts';
import { notCoveredAnswer } from '../../domain/chat/not-covered.ts';
import { countTokens } from '../../domain/document/tokens.ts';
import { contractChangingOption } from '../../domain/chat/options.ts';
import type { ChatAnswer, ChatDelta, ChatMessage, ChatModel, ContextPassage, ProviderOptions } from '../../ports/models.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata } from '../context.ts';
import { notAModelMessage } from '../../domain/shared/errors.ts';
import type { WorkspaceModelResolver } from './workspace-models.ts';
import { ApiError } from '../../ports/api-error.ts';
import { type Citation, citedPassages } from '../retrieval/retrieved-context.ts';
import type { RetrievalRequest } from '../retrieval/options.ts';
import type { ChatGrounding, GroundChat } from './chat-grounding.ts';
import type { Principal } from './principal.ts';
import { provenanceOf } from './provenance.ts';
import type { SearchService } from './search.ts';
import { requireAnswerableAsOf } from './as-of.ts';

export type ChatInput = {
  model: string;
  messages: ChatMessage[];
  /** The knowledge bases to ground the answer in: one, several, or none (a plain chat). */
  knowledgeBaseIds?: string[];
  filter?: RetrievalRequest['filter'];
  /** Ground the answer in the knowledge bases as they stood then (an ISO time, validated). */
  asOf?: string;
  temperature?: number;
  maxTokens?: number;
  stream: boolean;
  /** OpenAI's other request fields, for a provider model (see ProviderOptions). */
  options?: ProviderOptions;
  /** A server-side conversation the chat continues (see chat-conversation.ts, which reads it). */
  conversationId?: string;
  /** The knowledge bases whose text the messages carry (a stored conversation, earlier responses): the chat's provenance beside what it searches. */
  derivedFrom?: readonly string[];
  /** With an agent for model: its draft instead of its published version (chat-agent.ts). */
  agentVersion?: 'draft';
  /** An agent's retrieval options, over its knowledge bases' own settings (chat-agent.ts). */
  retrieval?: AgentConfig['retrieval'];
};

export type ChatOutcome = ChatAnswer & { firstTokenMs: number | null };

/** A chat whose retrieval is done: citations are fixed before the first token is generated. */
export type PreparedChat = {
  id: string;
  created: number;
  model: string;
  /** The knowledge bases searched. */
  knowledgeBaseIds: string[];
  /** Those searched and those the input was built from: what anything made of this chat's answer is readable by (provenance.ts). */
  provenance: string[];
  /** What retrieval searched for (the conversation's question); null without a knowledge base. */
  query: string | null;
  /** Every passage the model is given, numbered as its markers ([1], [2] …), as retrieved: the response's `context`. */
  context: Citation[];
  /** With a knowledge base: whether its passages cover the question, and how much of it. */
  grounding: { answerable: boolean; coverage: number } | null;
  /** The passages `answer` cites, with their quotes and markers: the response's `citations` (none when it cites nothing). */
  cite(answer: string): Citation[];
  /** Deltas of the answer, then one delta with the finish reason and usage. */
  generate(signal: AbortSignal): AsyncIterable<ChatDelta>;
  complete(signal: AbortSignal): Promise<ChatOutcome>;
  /** Appends ChatCompleted; call once the answer is out. */
  record(outcome: ChatOutcome): Promise<void>;
};

export type ChatDeps = {
  ctx: AppContext;
  /** Whose knowledge bases a key may read. */
  search: SearchService;
  /** The question, retrieval and (for a model without a provider) answer of a chat over knowledge bases: see chat-grounding.ts. */
  groundChat: GroundChat;
  chatModels: ReadonlyMap<string, ChatModel>;
  /** The chat models of the caller's workspace's providers (`{provider}/{model}`), beside the deployment's. */
  workspaceModels?: Pick<WorkspaceModelResolver, 'chatModel'>;
  storeContent: boolean;
};

export function createChatService({ ctx, search, groundChat, chatModels, workspaceModels, storeContent }: ChatDeps) {
  /** The grounding, as_of checked first: a version current then that is purged is a 410, not a quieter answer. */
  async function ground(kbs: Parameters<GroundChat>[0], kbIds: readonly string[], input: ChatInput, modelId: string, signal: AbortSignal) {
    const { messages, filter, asOf, temperature, maxTokens } = input;
    if (asOf) await requireAnswerableAsOf(ctx.readModels, kbIds, asOf);
    return groundChat(kbs, { messages, filter, ...(asOf && { asOf }), model: modelId, temperature, maxTokens }, { signal });
  }
  return {
    /**
     * Checks the model, retrieves with the question the conversation asks (not just its last
     * line), and builds the prompt. Nothing above the threshold: the answer is fixed, not generated.
     */
    async prepare(principal: Principal, input: ChatInput, signal: AbortSignal): Promise<PreparedChat> {
      const started = performance.now();
      const model = chatModels.get(input.model) ?? (await workspaceModels?.chatModel(principal.workspaceId, input.model));
      if (!model) {
        const message = `model: ${notAModelMessage(input.model, 'chat')}`;
        throw new ApiError(404, 'not_found_error', 'model_not_found', message, { param: 'model' });
      }
      const refused = model.passesOptions ? null : contractChangingOption(input.options ?? {});
      if (refused) {
        const message = `${refused}: ${model.model.id} answers in text only, without tools, function calls or JSON output; use a provider model for ${refused}.`;
        throw new ApiError(400, 'invalid_request_error', 'unsupported_parameter', message, { param: refused });
      }
      let citations: Citation[] = [];
      let passages: ContextPassage[] = [];
      let messages = input.messages;
      let notCovered = false;
      let grounding: PreparedChat['grounding'] = null;
      let grounded: ChatGrounding | null = null;
      const kbIds = input.knowledgeBaseIds ?? [];
      if (kbIds.length > 0) {
        const read = await search.knowledgeBases(principal, kbIds);
        const kbs = input.retrieval ? read.map((kb) => ({ ...kb, settings: withAgentRetrieval(kb.settings, input.retrieval) })) : read;
        grounded = await ground(kbs, kbIds, input, model.model.id, signal);
        ({ citations, passages } = grounded);
        grounding = { answerable: grounded.answerable && passages.length > 0, coverage: grounded.coverage };
        // The prompt the grounding built with the passages: one place builds it.
        messages = grounded.prompt;
        // A model with tools may still find the answer with them: it gets the question, not our fixed reply.
        notCovered = passages.length === 0 && !hasTools(input.options);
      }
      // An answer worked out with the retrieval (see chat-grounding.ts) is the model's time, not the retrieval's.
      const answered = grounded?.answer ?? null;
      const answerMs = grounded?.answerMs ?? 0;
      const retrievalMs = performance.now() - started - answerMs;
      const id = `chatcmpl-${ctx.newId('chat').slice('chat_'.length)}`;
      const request = { messages, temperature: input.temperature, maxTokens: input.maxTokens, passages: kbIds.length > 0 ? passages : undefined, options: input.options };
      const provenance = provenanceOf(kbIds, input.derivedFrom);
      const derivedOnly = provenance.filter((kb) => !kbIds.includes(kb));
      const refusal = notCoveredAnswer(grounded?.language);
      const promptTokens = () => messages.reduce((n, m) => n + countTokens(m.content) + 4, 0);

      return {
        id,
        created: Math.floor(ctx.now().getTime() / 1000),
        model: model.model.id,
        knowledgeBaseIds: kbIds,
        provenance,
        query: grounded?.query ?? null,
        context: citations,
        grounding,
        cite: (answer) => citedPassages(citations, answer),
        generate(abort) {
          if (notCovered) return fixedAnswer(refusal, promptTokens());
          if (answered && model.local) return model.local.replay(answered, abort);
          return model.stream({ ...request, signal: abort });
        },
        async complete(abort) {
          const t0 = performance.now();
          if (notCovered) {
            return { content: refusal, finishReason: 'stop', usage: { promptTokens: promptTokens(), completionTokens: countTokens(refusal) }, firstTokenMs: null };
          }
          if (answered) return (abort.throwIfAborted(), { ...answered, firstTokenMs: 0 });
          const result = await model.complete({ ...request, signal: abort });
          return { ...result, firstTokenMs: performance.now() - t0 };
        },
        async record(outcome) {
          const { usage } = outcome;
          await handleCommand(ctx.store, chatDecider, id, {
            type: 'RecordChat',
            data: {
              chat_id: id,
              workspace_id: principal.workspaceId,
              api_key_id: principal.keyId,
              knowledge_base_id: kbIds[0] ?? null,
              ...(kbIds.length > 1 && { knowledge_base_ids: kbIds }),
              ...(derivedOnly.length > 0 && { derived_from: derivedOnly }),
              model: model.model.id,
              stream: input.stream,
              finish_reason: outcome.finishReason,
              citations: citations.map(({ index, document_id, document_version, knowledge_base_id, chunk_id, source, page, score }) => ({ index, document_id, document_version, knowledge_base_id, chunk_id, source, page, score })),
              usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens },
              latency_ms: {
                retrieval: round(retrievalMs),
                // An answer worked out with the retrieval took answerMs before any of it could be sent.
                first_token: outcome.firstTokenMs === null ? null : round(retrievalMs + answerMs + outcome.firstTokenMs),
                total: round(performance.now() - started),
              },
              ...(storeContent && { messages: input.messages.map(({ role, content }) => ({ role, content })), answer: outcome.content }),
            },
            metadata: commandMetadata(ctx, principal.keyId),
          });
        },
      };
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;

async function* fixedAnswer(content: string, promptTokens: number): AsyncIterable<ChatDelta> {
  yield { content };
  yield { finishReason: 'stop', usage: { promptTokens, completionTokens: countTokens(content) } };
}

const hasTools = (options: ChatInput['options']) => Array.isArray(options?.tools) && options.tools.length > 0;

const round = (ms: number) => Math.round(ms * 100) / 100;
