import type { ChatInput } from '../app/services/chat.ts';
import { ApiError } from '../ports/api-error.ts';
import { retrievalFilter } from './retrieval-filter.ts';
import { asOfOf } from '../app/services/as-of.ts';
import type { ChatMessage } from '../ports/models.ts';
import { type ChatCompletionBody, type ChatMessageBody } from '../../schemas/http/chat.ts';
import { PASSED_TO_PROVIDER } from '../../schemas/http/chat-openai.ts';

/** OpenAI's chat request as our chat service takes it; refuses what no model here can answer (several choices, audio). */
export function toChatInput(body: ChatCompletionBody): ChatInput {
  refuseForEveryModel(body);
  const options = Object.fromEntries(PASSED_TO_PROVIDER.flatMap((field) => (body[field] === undefined ? [] : [[field, body[field]]])));
  return {
    model: body.model,
    messages: body.messages.map(toChatMessage),
    knowledgeBaseIds: body.knowledge_base_ids ?? (body.knowledge_base_id === undefined ? undefined : [body.knowledge_base_id]),
    filter: retrievalFilter(body.filter),
    ...(body.as_of !== undefined && { asOf: asOfOf(body.as_of) }),
    temperature: body.temperature ?? undefined,
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    stream: body.stream ?? false,
    options,
    ...(body.agent_version !== undefined && { agentVersion: body.agent_version }),
    ...(body.conversation !== undefined && { conversationId: typeof body.conversation === 'string' ? body.conversation : body.conversation.id }),
  };
}

function toChatMessage(m: ChatMessageBody): ChatMessage {
  const content = textOf(m.content);
  switch (m.role) {
    // `developer` is OpenAI's newer name for the system role.
    case 'developer':
      return { role: 'system', content };
    case 'system':
    case 'user':
      return { role: m.role, content };
    case 'tool':
      return { role: 'tool', content, toolCallId: m.tool_call_id };
    case 'assistant':
      return { role: 'assistant', content, ...(m.tool_calls?.length && { toolCalls: m.tool_calls }) };
    default: {
      const never: never = m;
      return never;
    }
  }
}

function textOf(content: ChatMessageBody['content']): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : p.refusal)).join('\n');
}

/** One answer in text: several choices or audio would change the response's shape for any model. */
function refuseForEveryModel(body: ChatCompletionBody) {
  const unsupported = (param: string, message: string) => new ApiError(400, 'invalid_request_error', 'unsupported_parameter', `${param}: ${message}`, { param });
  if ((body.n ?? 1) > 1) throw unsupported('n', 'only one choice per request (n=1); send the request again for another answer.');
  if (body.audio || body.modalities?.includes('audio')) throw unsupported(body.audio ? 'audio' : 'modalities', 'answers are text only.');
}
