import type { Transport } from '../http.ts';
import type { Agent, AgentPublication, AgentVersion, CreateAgent, Deleted, ListParams, Page, UpdateAgent } from '../types.ts';

const path = (id: string) => `/agents/${encodeURIComponent(id)}`;
type Options = { signal?: AbortSignal };

/** Agents: a draft changed with `update`, immutable versions made by `publish`; chat with `model: agent.id`. */
export function agentsResource(t: Transport) {
  return {
    /** `public.access_code` is stored only as a hash: the agent shows `access_code_set`. */
    async create(body: CreateAgent, options: Options = {}): Promise<Agent> {
      return (await t.json<Agent>({ method: 'POST', path: '/agents', json: body, signal: options.signal })).body;
    },
    async list(params: ListParams & Options = {}): Promise<Page<Agent>> {
      const { signal, ...query } = params;
      return (await t.json<Page<Agent>>({ method: 'GET', path: '/agents', query, signal })).body;
    },
    async get(id: string, options: Options = {}): Promise<Agent> {
      return (await t.json<Agent>({ method: 'GET', path: path(id), signal: options.signal })).body;
    },
    /** Changes the draft; the published version answers until the next `publish`. */
    async update(id: string, body: UpdateAgent, options: Options = {}): Promise<Agent> {
      return (await t.json<Agent>({ method: 'PATCH', path: path(id), json: body, signal: options.signal })).body;
    },
    async delete(id: string, options: Options = {}): Promise<Deleted> {
      return (await t.json<Deleted>({ method: 'DELETE', path: path(id), signal: options.signal })).body;
    },
    /** Freezes the draft as the next version: `{version, public_url, embed: {iframe, script}}`. */
    async publish(id: string, options: Options = {}): Promise<AgentPublication> {
      return (await t.json<AgentPublication>({ method: 'POST', path: `${path(id)}/publish`, signal: options.signal })).body;
    },
    async unpublish(id: string, options: Options = {}): Promise<Agent> {
      return (await t.json<Agent>({ method: 'POST', path: `${path(id)}/unpublish`, signal: options.signal })).body;
    },
    async versions(id: string, params: ListParams & Options = {}): Promise<Page<AgentVersion>> {
      const { signal, ...query } = params;
      return (await t.json<Page<AgentVersion>>({ method: 'GET', path: `${path(id)}/versions`, query, signal })).body;
    },
  };
}

export type AgentsResource = ReturnType<typeof agentsResource>;
