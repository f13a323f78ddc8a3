import type { AgentDoc } from '../../../projections/agents/index.ts';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import { type Caller, type Kb, mayRead, QUESTION, type Request, type ResourceKind, type World } from './recipe.ts';

/**
 * The access matrix's checks of what a request causes (issue 30), beside what it answers:
 * - effects: around every write by a key that is limited (or of another workspace), everything of
 *   the planted knowledge bases it may not write (settings, documents, passages, conversation),
 *   every planted file it may not delete and every agent it may not read is byte-identical before
 *   and after;
 * - provenance: each way of building an object from other items (DERIVATIONS) builds one from a
 *   knowledge base with a key allowed everything while searching another, and a key limited to the
 *   other may not read it. A request field that names a stored item to build from must be listed
 *   here, as derivation or not (ITEM_FIELDS), or the matrix fails.
 */

const RANK = { read: 1, write: 2, admin: 3 } as const;
const WRITING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const mayWrite = (caller: Caller, kb: Kb) => mayRead(caller, kb) && RANK[caller.scope] >= RANK.write;
/** Files are the workspace's: a limited key deletes only its own uploads, never a planted one. */
const mayDeleteFilesOf = (caller: Caller, kb: Kb) => !caller.invalid && caller.workspace === kb.workspace && caller.limitedTo === null && RANK[caller.scope] >= RANK.write;

/** Limited keys and other workspaces' keys are the ones whose side effects the matrix watches. */
export const watchesEffects = (caller: Caller, request: Request) => WRITING.has(request.method) && (caller.limitedTo !== null || caller.workspace !== 'main');

const SETTLING = new Set(['queued', 'parsing', 'indexing']);

/** Waits until no planted knowledge base has a document on its way (earlier cases' uploads), so that a snapshot is stable. */
async function settle(world: World): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const kb of Object.values(world.kbs)) {
    for (;;) {
      const { body } = await world.server.call('GET', `/v1/knowledge-bases/${kb.id}/documents?limit=100`, { key: world.admins[kb.workspace] });
      if (!(body.data as { status: string }[]).some((d) => SETTLING.has(d.status))) break;
      if (Date.now() > deadline) throw new Error(`documents of ${kb.id} still settling after 60 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** What the caller may not change, as its owner reads it: one string to compare byte for byte. */
export async function snapshot(world: World, caller: Caller): Promise<string> {
  await settle(world);
  const parts: Record<string, unknown> = {};
  const read = async (label: string, kb: Kb, path: string) => {
    const { status, body } = await world.server.call('GET', path, { key: world.admins[kb.workspace] });
    parts[label] = { status, body };
  };
  for (const [kind, kb] of Object.entries(world.kbs) as [ResourceKind, Kb][]) {
    if (!mayWrite(caller, kb)) {
      await read(`${kind} knowledge base`, kb, `/v1/knowledge-bases/${kb.id}`);
      await read(`${kind} documents`, kb, `/v1/knowledge-bases/${kb.id}/documents?limit=100&order=asc`);
      await read(`${kind} passages`, kb, `/v1/knowledge-bases/${kb.id}/documents/${kb.documentId}/chunks?limit=100`);
    }
    if (!mayRead(caller, kb)) await read(`${kind} conversation`, kb, `/v1/conversations/${kb.conversation.conversationId}/items?order=asc&limit=100`);
    if (!mayDeleteFilesOf(caller, kb)) await read(`${kind} file`, kb, `/v1/files/${kb.fileId}`);
  }
  parts['agents it may not read'] = await unreadableAgents(world, caller);
  return JSON.stringify(parts, null, 1);
}

/**
 * Every agent the caller may not read, as the read model holds it (issue 42, item 8): a refused
 * write leaves none behind. An agent is the caller's to read when it is of its workspace and, for a
 * limited key, answers (draft and published version) from its knowledge base only, not a workflow.
 */
async function unreadableAgents(world: World, caller: Caller): Promise<AgentDoc[]> {
  const { readModels } = world.server.runtime.ctx;
  const main = (await readModels.get<KnowledgeBaseDoc>('knowledge_bases', world.kbs.own_kb.id))!.workspace_id;
  const readable = (agent: AgentDoc) => {
    if (caller.invalid || (agent.workspace_id === main) !== (caller.workspace === 'main')) return false;
    const configs = [agent.draft, agent.published?.config].filter((c) => c !== undefined);
    return caller.limitedTo === null || configs.every((c) => c.workflow_id === null && c.knowledge_base_ids.every((id) => id === caller.limitedTo));
  };
  return (await readModels.find<AgentDoc>('agents', { order: 'asc' })).filter((agent) => !readable(agent));
}

/** One way of building an object from another: it builds one from `source` while searching `searched`, and names the request that reads it back. */
export type Derivation = (world: World, source: Kb, searched: Kb) => Promise<Request>;

const respond = (kb: Kb, extra: Record<string, unknown> = {}) => ({ model: 'kbqa-extractive', input: QUESTION, tools: [{ type: 'file_search', vector_store_ids: [kb.id] }], ...extra });

async function post(world: World, path: string, json: unknown) {
  const { status, body } = await world.server.call('POST', path, { json });
  if (status >= 300) throw new Error(`POST ${path}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** A stored response over the knowledge base, and its answer's output item. */
async function answered(world: World, kb: Kb): Promise<{ id: string; messageId: string }> {
  const response = await post(world, '/v1/responses', respond(kb));
  return { id: response.id, messageId: response.output.find((o: { type: string }) => o.type === 'message').id };
}

/** A conversation whose chat searched the knowledge base. */
async function conversationOver(world: World, kb: Kb): Promise<string> {
  const conv = await post(world, '/v1/conversations', {});
  await post(world, '/v1/chat/completions', { model: 'kbqa-extractive', knowledge_base_id: kb.id, conversation: conv.id, messages: [{ role: 'user', content: QUESTION }] });
  return conv.id;
}

export const DERIVATIONS: Record<string, Derivation> = {
  'POST /v1/responses previous_response_id: the response': async (w, source, searched) => {
    const earlier = await answered(w, source);
    const built = await post(w, '/v1/responses', respond(searched, { previous_response_id: earlier.id, input: 'And again?' }));
    return { method: 'GET', path: `/v1/responses/${built.id}` };
  },
  'POST /v1/responses item_reference: the response': async (w, source, searched) => {
    const earlier = await answered(w, source);
    const built = await post(w, '/v1/responses', respond(searched, { input: [{ type: 'item_reference', id: earlier.messageId }, { role: 'user', content: QUESTION }] }));
    return { method: 'GET', path: `/v1/responses/${built.id}/input_items` };
  },
  'POST /v1/responses item_reference: the conversation it is stored in': async (w, source, searched) => {
    const earlier = await answered(w, source);
    const conv = await post(w, '/v1/conversations', {});
    await post(w, '/v1/responses', respond(searched, { conversation: conv.id, input: [{ type: 'item_reference', id: earlier.messageId }, { role: 'user', content: QUESTION }] }));
    return { method: 'GET', path: `/v1/conversations/${conv.id}/items?order=asc` };
  },
  'POST /v1/responses conversation: the response': async (w, source, searched) => {
    const conv = await conversationOver(w, source);
    const built = await post(w, '/v1/responses', respond(searched, { conversation: conv, input: 'And again?' }));
    return { method: 'GET', path: `/v1/responses/${built.id}` };
  },
  'POST /v1/chat/completions conversation: rating the chat': async (w, source, searched) => {
    const conv = await conversationOver(w, source);
    const chat = await post(w, '/v1/chat/completions', { model: 'kbqa-extractive', knowledge_base_id: searched.id, conversation: conv, messages: [{ role: 'user', content: 'And here?' }] });
    return { method: 'POST', path: `/v1/chat/completions/${chat.id}/feedback`, json: { rating: 'up' } };
  },
  'POST /v1/chat conversation: the conversation': async (w, source, searched) => {
    const conv = await conversationOver(w, source);
    await post(w, '/v1/chat', { model: 'kbqa-extractive', knowledge_base_id: searched.id, conversation: conv, messages: [{ role: 'user', content: 'And here?' }] });
    return { method: 'GET', path: `/v1/conversations/${conv}/items?order=asc` };
  },
  'POST /v1/workflows/{workflow_id}/run graph: the run': async (w, source, searched) => {
    const graph = {
      nodes: [
        { id: 'start', type: 'start', config: { inputs: [{ name: 'question', type: 'string', required: true }] } },
        { id: 'here', type: 'knowledge_retrieval', config: { knowledge_base_id: searched.id, query: '{{start.question}}' } },
        { id: 'there', type: 'knowledge_retrieval', config: { knowledge_base_id: source.id, query: '{{start.question}}' } },
        { id: 'reply', type: 'direct_reply', config: { template: '{{here.context}} {{there.context}}' } },
      ],
      edges: [
        { from: 'start', to: 'here' },
        { from: 'here', to: 'there' },
        { from: 'there', to: 'reply' },
      ],
    };
    const wf = await post(w, '/v1/workflows', { name: 'derived', graph });
    const run = await post(w, `/v1/workflows/${wf.id}/run`, { inputs: { question: QUESTION } });
    return { method: 'GET', path: `/v1/workflow-runs/${run.id}` };
  },
  'POST /v1/workflows/{workflow_id}/run run_id: the run from a node': async (w, source, searched) => {
    // The earlier run retrieved from the source; the draft now retrieves from the searched base,
    // but a run from the model's node reuses the source's passages: it carries both.
    const wf = await post(w, '/v1/workflows', { name: 'derived', template: 'knowledge-qa', knowledge_base_id: source.id });
    const earlier = await post(w, `/v1/workflows/${wf.id}/run`, { inputs: { question: QUESTION } });
    const graph = { ...wf.graph, nodes: wf.graph.nodes.map((n: { id: string; config: object }) => (n.id === 'retrieve' ? { ...n, config: { ...n.config, knowledge_base_id: searched.id } } : n)) };
    const { status } = await w.server.call('PUT', `/v1/workflows/${wf.id}`, { json: { name: 'derived', graph } });
    if (status !== 200) throw new Error(`PUT the derived workflow: ${status}`);
    const run = await post(w, `/v1/workflows/${wf.id}/run`, { version: 'draft', from: { run_id: earlier.id, node_id: 'llm' } });
    return { method: 'GET', path: `/v1/workflow-runs/${run.id}` };
  },
};

/**
 * Every request field that names a stored item, by route: a derivation above (by the key's prefix)
 * or why it is not one. A new field that matches ITEM_FIELD fails the matrix until it is listed.
 */
export const ITEM_FIELDS: Record<string, string> = {
  'POST /v1/workflows/{workflow_id}/run run_id': 'derivation',
  'POST /v1/responses previous_response_id': 'derivation',
  'POST /v1/responses item_reference': 'derivation',
  'POST /v1/responses conversation': 'derivation',
  'POST /v1/chat/completions conversation': 'derivation',
  'POST /v1/chat conversation': 'derivation',
  'POST /v1/vector_stores file_id': 'not derived: a file is the key’s own upload (a limited key sees only its own), and its bytes become a document of the store the key names',
  'POST /v1/vector_stores/{vector_store_id}/files file_id': 'not derived: as for POST /v1/vector_stores',
  'POST /v1/vector_stores/{vector_store_id}/file_batches file_id': 'not derived: as for POST /v1/vector_stores',
};

/** A property that names a stored item to build from: a conversation, an earlier response, an item, a file, a run. */
export const ITEM_FIELD = /"((?:[a-z_]*_)?(?:conversation|response_id|item_reference|file_id|run_id|chat_id|completion_id))"/g;
