import { DEFAULT_TIMEOUT_MS, type WorkflowGraph } from '../../../schemas/workflow.ts';
import { GROUNDING_INSTRUCTIONS } from '../chat/prompt.ts';

/**
 * The passages and what the other system said, side by side: the model answers from both, and
 * the reply cites the passages (the lookup's answer has no page to cite).
 */
const SYSTEM = `${GROUNDING_INSTRUCTIONS}\n\nPassages:\n\n{{retrieve.context}}\n\nWhat {{lookup.status}} from the lookup said:\n\n{{lookup.body}}`;

/**
 * The flow behind `template: "http-lookup"`: knowledge Q&A that also asks another system (an
 * order service, a CRM) over HTTP. The request's JSON body is built by a code node because a
 * template inserts text as it is, and a question with a quote in it would break hand-written JSON.
 * Secret headers (an API key) are added on the canvas or by PUT: `secret_headers` names a secret,
 * never its value.
 */
export function httpLookupGraph(knowledgeBaseId: string, lookupUrl: string, model = 'kbqa-extractive'): WorkflowGraph {
  const timeout_ms = DEFAULT_TIMEOUT_MS;
  return {
    nodes: [
      { id: 'start', type: 'start', timeout_ms, config: { inputs: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'request_body', type: 'code', timeout_ms, config: { code: 'return JSON.stringify({ question: inputs.question });', inputs: { question: '{{start.question}}' } } },
      {
        id: 'lookup',
        type: 'http_request',
        timeout_ms,
        config: { method: 'POST', url: lookupUrl, headers: {}, secret_headers: {}, body: '{{request_body.result}}', body_type: 'json', retries: 1 },
      },
      { id: 'retrieve', type: 'knowledge_retrieval', timeout_ms, config: { knowledge_base_id: knowledgeBaseId, query: '{{start.question}}' } },
      { id: 'llm', type: 'llm', timeout_ms, config: { model, system: SYSTEM, prompt: '{{start.question}}' } },
      { id: 'answer', type: 'direct_reply', timeout_ms, config: { template: '{{llm.text}}' } },
    ],
    edges: [
      { from: 'start', to: 'request_body' },
      { from: 'request_body', to: 'lookup' },
      { from: 'lookup', to: 'retrieve' },
      { from: 'retrieve', to: 'llm' },
      { from: 'llm', to: 'answer' },
    ],
  };
}
