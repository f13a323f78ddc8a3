import type { ChatOutcome } from '../app/services/chat.ts';
import type { ToolCall, ToolCallDelta } from '../ports/models.ts';
import { annotationsOf, fileSearchItem, functionCallItem, itemIds, messageItem, outputOf, outputText, responseObject, type ResponseFacts } from './response-object.ts';
import type { EventStream } from './sse.ts';

/**
 * The Responses API's event stream, each event named by its `type` and numbered: the response
 * created and in progress, the search as an output item (retrieval is done before the first
 * event, so it opens and completes at once), the message's text deltas, its annotations once the
 * text is whole, the function calls a provider model makes, and the completed response, once
 * stored (onDone). A failure
 * after the headers is an `error` event, as on chat's stream.
 */
export function streamResponse(facts: ResponseFacts, stream: EventStream, onDone: (outcome: ChatOutcome, response: ReturnType<typeof responseObject>) => Promise<void>) {
  let sequence = 0;
  const emit = (type: string, fields: Record<string, unknown>) => stream.send({ type, sequence_number: sequence++, ...fields }, type);
  const searched = facts.prepared.knowledgeBaseIds.length > 0;
  const messageIndex = searched ? 1 : 0;
  const messageId = itemIds(facts.id).message;
  const at = { item_id: messageId, output_index: messageIndex, content_index: 0 };

  void (async () => {
    const started = performance.now();
    let firstTokenMs: number | null = null;
    let content = '';
    let opened = false;
    const calls: ToolCall[] = [];
    const openMessage = () => {
      if (opened) return;
      opened = true;
      emit('response.output_item.added', { output_index: messageIndex, item: messageItem(facts, '', 'in_progress') });
      emit('response.content_part.added', { ...at, part: outputText('', []) });
    };
    try {
      const initial = responseObject(facts, { status: 'in_progress', output: [], usage: null, content: '' });
      emit('response.created', { response: initial });
      emit('response.in_progress', { response: initial });
      if (searched) searchEvents(facts, emit);
      for await (const delta of facts.prepared.generate(stream.signal)) {
        if ('content' in delta) {
          if (delta.content === '') continue;
          firstTokenMs ??= performance.now() - started;
          openMessage();
          content += delta.content;
          emit('response.output_text.delta', { ...at, delta: delta.content, logprobs: [] });
        } else if ('toolCalls' in delta) {
          firstTokenMs ??= performance.now() - started;
          gather(calls, delta.toolCalls);
        } else {
          const outcome: ChatOutcome = { content, finishReason: delta.finishReason, usage: delta.usage, firstTokenMs, ...(calls.length > 0 && { toolCalls: calls }) };
          if (content !== '' || calls.length === 0) {
            openMessage();
            closeMessage(facts, content, emit);
          }
          calls.forEach((call, i) => callEvents(facts, call, i, messageIndex + (opened ? 1 : 0) + i, emit));
          const response = responseObject(facts, { status: delta.finishReason === 'length' ? 'incomplete' : 'completed', output: outputOf(facts, outcome), usage: delta.usage, content });
          await onDone(outcome, response);
          emit(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
        }
      }
      stream.end();
    } catch (error) {
      stream.fail(error);
    }
  })();
}

type Emit = (type: string, fields: Record<string, unknown>) => void;

function searchEvents(facts: ResponseFacts, emit: Emit) {
  const item = fileSearchItem(facts, 'in_progress');
  const ids = { output_index: 0, item_id: item.id };
  emit('response.output_item.added', { output_index: 0, item });
  emit('response.file_search_call.in_progress', ids);
  emit('response.file_search_call.searching', ids);
  emit('response.file_search_call.completed', ids);
  emit('response.output_item.done', { output_index: 0, item: fileSearchItem(facts, 'completed') });
}

function closeMessage(facts: ResponseFacts, text: string, emit: Emit) {
  const at = { item_id: itemIds(facts.id).message, output_index: facts.prepared.knowledgeBaseIds.length > 0 ? 1 : 0, content_index: 0 };
  const annotations = annotationsOf(text, facts.prepared.cite(text), facts.fileIds);
  annotations.forEach((annotation, i) => emit('response.output_text.annotation.added', { ...at, annotation_index: i, annotation }));
  emit('response.output_text.done', { ...at, text, logprobs: [] });
  emit('response.content_part.done', { ...at, part: outputText(text, annotations) });
  emit('response.output_item.done', { output_index: at.output_index, item: messageItem(facts, text, 'completed') });
}

function callEvents(facts: ResponseFacts, call: ToolCall, i: number, outputIndex: number, emit: Emit) {
  const item = functionCallItem(facts, call, i, 'completed');
  emit('response.output_item.added', { output_index: outputIndex, item: functionCallItem(facts, call, i, 'in_progress') });
  emit('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta: call.function.arguments });
  emit('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, name: call.function.name, arguments: call.function.arguments });
  emit('response.output_item.done', { output_index: outputIndex, item });
}

/** Chat's tool-call deltas put back together, by their index. */
function gather(calls: ToolCall[], deltas: readonly ToolCallDelta[]) {
  for (const d of deltas) {
    const call = (calls[d.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
    if (d.id) call.id = d.id;
    if (d.function?.name) call.function.name += d.function.name;
    if (d.function?.arguments) call.function.arguments += d.function.arguments;
  }
}
