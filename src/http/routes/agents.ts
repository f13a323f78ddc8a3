import { type AgentService, publicUrl } from '../../app/services/agents.ts';
import { Agent, AgentDeleted, AgentPublication, AgentVersion, CreateAgentBody, UpdateAgentBody } from '../../../schemas/http/agents.ts';
import { ListQuery, listOf } from '../../../schemas/http/common.ts';
import { route } from '../route.ts';
import { embedSnippet } from '../landing/embed-snippet.ts';

const tag = 'agents';

export function agentRoutes(agents: AgentService) {
  return [
    route({
      method: 'post',
      path: '/v1/agents',
      summary: 'Create an agent (a draft): instructions, a chat model, and the knowledge bases or workflow it answers from',
      tag,
      scope: 'write',
      body: CreateAgentBody,
      response: Agent,
      status: 201,
      handle: async ({ principal, body, requestId }) => ({ status: 201, body: await agents.create(principal, body, requestId) }),
    }),
    route({
      method: 'get',
      path: '/v1/agents',
      summary: 'List agents',
      tag,
      scope: 'read',
      query: ListQuery,
      response: listOf(Agent),
      handle: async ({ principal, query }) => ({ body: await agents.list(principal, query) }),
    }),
    route({
      method: 'get',
      path: '/v1/agents/:agent_id',
      summary: 'Get an agent (its draft, and which version is published)',
      tag,
      scope: 'read',
      response: Agent,
      handle: async ({ principal, params }) => ({ body: await agents.get(principal, params.agent_id) }),
    }),
    route({
      method: 'patch',
      path: '/v1/agents/:agent_id',
      summary: 'Change an agent’s draft (the published version stays until published again)',
      tag,
      scope: 'write',
      body: UpdateAgentBody,
      response: Agent,
      handle: async ({ principal, params, body, requestId }) => ({ body: await agents.update(principal, params.agent_id, body, requestId) }),
    }),
    route({
      method: 'delete',
      path: '/v1/agents/:agent_id',
      summary: 'Delete an agent; its landing page is gone',
      tag,
      scope: 'write',
      response: AgentDeleted,
      handle: async ({ principal, params, requestId }) => ({ body: await agents.remove(principal, params.agent_id, requestId) }),
    }),
    route({
      method: 'post',
      path: '/v1/agents/:agent_id/publish',
      summary: 'Publish the draft as a new immutable version: its landing page and `model: "agt_…"` answer from it',
      tag,
      scope: 'write',
      response: AgentPublication,
      handle: async ({ ctx, principal, params, requestId }) => {
        // Koa 3's ctx.origin is the Origin header (absent without a browser): the snippet names this server.
        const { version, slug, name } = await agents.publish(principal, params.agent_id, requestId);
        return { body: { object: 'agent.publication', agent_id: params.agent_id, version, public_url: publicUrl(slug), embed: embedSnippet(`${ctx.protocol}://${ctx.host}`, slug, name) } };
      },
    }),
    route({
      method: 'post',
      path: '/v1/agents/:agent_id/unpublish',
      summary: 'Take the agent’s landing page down (its versions stay; publishing again makes the next one)',
      tag,
      scope: 'write',
      response: Agent,
      handle: async ({ principal, params, requestId }) => ({ body: await agents.unpublish(principal, params.agent_id, requestId) }),
    }),
    route({
      method: 'get',
      path: '/v1/agents/:agent_id/versions',
      summary: 'List an agent’s published versions (those the key may read)',
      tag,
      scope: 'read',
      query: ListQuery,
      response: listOf(AgentVersion),
      handle: async ({ principal, params, query }) => ({ body: await agents.versions(principal, params.agent_id, query) }),
    }),
  ];
}
