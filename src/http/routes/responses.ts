import { ApiError } from '../../ports/api-error.ts';
import type { ChatOutcome, ChatService } from '../../app/services/chat.ts';
import type { Principal } from '../../app/services/principal.ts';
import type { ResponsesService } from '../../app/services/responses.ts';
import type { ChatMessage } from '../../ports/models.ts';
import { DeletedResponse, InputItemsQuery, ResponseCreateBody, type ResponseInputItem, ResponseInputItems, ResponseObject } from '../../../schemas/http/responses.ts';
import { abortOnDisconnect } from '../client-abort.ts';
import { outputOf, responseIdOfItem, responseObject, type ResponseFacts } from '../response-object.ts';
import { inResponsesTerms, listedItem, resolveReferences, toResponseRequest } from '../responses-input.ts';
import { type Reply, route } from '../route.ts';
import { openEventStream } from '../sse.ts';
import { streamResponse } from '../sse-responses.ts';

const tag = 'responses';

const responsesStream =
  'With `stream: true`: OpenAI’s response events, each `event:` named as its `type` and numbered by `sequence_number`: `response.created`, `response.in_progress`, the file_search_call item (`response.output_item.added`, `response.file_search_call.in_progress`/`searching`/`completed`, `response.output_item.done`), the message (`response.output_item.added`, `response.content_part.added`, `response.output_text.delta` …, `response.output_text.annotation.added` per citation, `response.output_text.done`, `response.content_part.done`, `response.output_item.done`), function calls, then `response.completed`.';

type CreateInputs = Parameters<Parameters<typeof route<typeof ResponseCreateBody>>[0]['handle']>[0];

/** onServerError hears failures past the response's start (mid-stream, recording the chat), with the request's id. */
export function responseRoutes(deps: { chat: ChatService; responses: ResponsesService }, onServerError: (error: unknown, requestId: string) => void) {
  const { chat, responses } = deps;

  /**
   * Chat's retrieval and answer under the Responses API's names; the answer is recorded as a chat,
   * and stored as a response unless `store: false` before the client hears it is complete, so that
   * it can be read back or continued at once.
   */
  async function create({ ctx, principal, body, requestId }: CreateInputs): Promise<Reply> {
    const onError = (error: unknown) => onServerError(error, requestId);
    const abort = abortOnDisconnect(ctx);
    const notFound = (id: string) => new ApiError(404, 'not_found_error', 'item_not_found', `input: no stored item ${id}.`, { param: 'input' });
    // What earlier responses bring into this one is part of its provenance (provenance.ts): a key that may not read those may not read this.
    const derivedFrom = new Set<string>();
    const find = async (itemId: string) => {
      const responseId = responseIdOfItem(itemId);
      if (!responseId) throw notFound(itemId);
      const { item, knowledgeBaseIds } = await responses.outputItem(principal, responseId, itemId);
      knowledgeBaseIds.forEach((kb) => derivedFrom.add(kb));
      return item;
    };
    const request = toResponseRequest({ ...body, input: await resolveReferences(body.input, find) });
    const previous = request.previousResponseId ? await responses.conversation(principal, request.previousResponseId) : null;
    previous?.knowledgeBaseIds.forEach((kb) => derivedFrom.add(kb));
    const earlier = previous?.messages ?? [];
    const instructions: ChatMessage[] = request.instructions ? [{ role: 'system', content: request.instructions }] : [];
    const conversation = [...earlier, ...request.input];
    const prepared = await chat.prepare(principal, { ...request.chat, messages: [...instructions, ...conversation], derivedFrom: [...derivedFrom] }, abort.signal).catch((error: unknown) => {
      throw inResponsesTerms(error);
    });
    const id = `resp_${prepared.id.slice('chatcmpl-'.length)}`;
    const fileIds = await responses.fileIds(principal, prepared.context.map((c) => c.document_id));
    const facts: ResponseFacts = { id, createdAt: prepared.created, body, request, prepared, fileIds };
    const finish = async (outcome: ChatOutcome, response: unknown) => {
      await prepared.record(outcome).catch(onError);
      if (!request.store) return;
      const answer: ChatMessage = { role: 'assistant', content: outcome.content, ...(outcome.toolCalls && { toolCalls: outcome.toolCalls }) };
      const inputItems: ResponseInputItem[] = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
      await responses.store(principal, {
        response_id: id,
        knowledge_base_ids: prepared.provenance,
        conversation: [...conversation, answer],
        input_items: inputItems.map((item, i) => listedItem(item, `in_${id.slice('resp_'.length)}_${i}`)),
        response: response as Record<string, unknown>,
      });
    };
    if (request.chat.stream) {
      const stream = openEventStream(ctx, { onServerError: onError });
      streamResponse(facts, stream, finish);
      return stream.reply;
    }
    const outcome = await prepared.complete(abort.signal);
    const status = outcome.finishReason === 'length' ? 'incomplete' : 'completed';
    const response = responseObject(facts, { status, output: outputOf(facts, outcome), usage: outcome.usage, content: outcome.content });
    await finish(outcome, response);
    return { body: response };
  }

  const get = (principal: Principal, id: string) => responses.get(principal, id);
  type InputItem = Record<string, unknown> & { id?: unknown };
  /** One page of the items, in the order asked, after or before the named one. */
  const pageOf = (items: InputItem[], query: InputItemsQuery) => {
    const ordered = query.order === 'asc' ? items : [...items].reverse();
    const at = (id: string | undefined) => (id === undefined ? -1 : ordered.findIndex((i) => i.id === id));
    const from = query.after === undefined ? 0 : at(query.after) + 1;
    const to = query.before === undefined ? ordered.length : Math.max(0, at(query.before));
    const data = ordered.slice(from, to).slice(0, query.limit);
    const idOf = (item: InputItem | undefined) => (typeof item?.id === 'string' ? item.id : null);
    return { object: 'list', data, first_id: idOf(data[0]), last_id: idOf(data.at(-1)), has_more: from + data.length < to };
  };

  return [
    route({
      method: 'post',
      path: '/v1/responses',
      summary: 'OpenAI’s Responses API: with a file_search tool over vector_store_ids (knowledge base ids) the answer is grounded as chat’s and cites with file_citation annotations',
      tag,
      scope: 'read',
      load: 'query',
      body: ResponseCreateBody,
      response: ResponseObject,
      eventStream: responsesStream,
      handle: create,
    }),
    route({
      method: 'get',
      path: '/v1/responses/:response_id',
      summary: 'A stored response, as it was returned',
      tag,
      scope: 'read',
      response: ResponseObject,
      handle: async ({ principal, params }) => ({ body: await get(principal, params.response_id) }),
    }),
    route({
      method: 'delete',
      path: '/v1/responses/:response_id',
      summary: 'Deletes a stored response: it can no longer be read or continued',
      tag,
      scope: 'read',
      response: DeletedResponse,
      handle: async ({ principal, params }) => {
        await responses.delete(principal, params.response_id);
        return { body: { id: params.response_id, object: 'response', deleted: true } };
      },
    }),
    route({
      method: 'get',
      path: '/v1/responses/:response_id/input_items',
      summary: 'The input items of a stored response, as sent',
      tag,
      scope: 'read',
      query: InputItemsQuery,
      response: ResponseInputItems,
      handle: async ({ principal, params, query }) => ({ body: pageOf(await responses.inputItems(principal, params.response_id), query) }),
    }),
  ];
}
