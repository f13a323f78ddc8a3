import type { CanvasGraph, CanvasNode } from './graph.ts';

/**
 * What the canvas knows of each node type: a new node's config, the fields the side panel draws,
 * and the outputs `{{node.field}}` may name. The console may not import the server's
 * src/domain/workflow/nodes (web/ is apart, docs/architecture.md), so this mirrors it; the server's
 * /validate remains the judge, and its messages show on the node. test/unit/console-node-types-mirror
 * checks the mirror against the server's types (names, config fields, outputs).
 */
export type FieldKind = 'template' | 'text' | 'number' | 'boolean' | 'json' | 'knowledge_base' | 'model' | { choices: readonly string[] };
/** `optional`: emptied, the field is left out of the config rather than sent as "". */
export type FieldSpec = { name: string; kind: FieldKind; optional?: true };

type TypeSpec = {
  fields: readonly FieldSpec[];
  initial: () => Record<string, unknown>;
  outputs(config: Record<string, unknown>): string[];
  /** What an edge out of it may carry as `when`; undefined: it does not branch. */
  branches?(config: Record<string, unknown>): (boolean | string)[];
};

const keysOf = (value: unknown): string[] => (value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : []);
const namesIn = (value: unknown): string[] =>
  Array.isArray(value) ? value.flatMap((item: unknown) => (item && typeof item === 'object' && 'name' in item && typeof item.name === 'string' ? [item.name] : [])) : [];
const fixed = (...names: string[]) => () => names;
const t = (name: string, optional?: true): FieldSpec => ({ name, kind: 'template', optional });
const n = (name: string): FieldSpec => ({ name, kind: 'number' });
const j = (name: string): FieldSpec => ({ name, kind: 'json' });

export const NODE_TYPES: Record<string, TypeSpec> = {
  start: {
    fields: [j('inputs')],
    initial: () => ({ inputs: [{ name: 'question', type: 'string', required: true }] }),
    outputs: (config) => namesIn(config.inputs),
  },
  knowledge_retrieval: {
    fields: [
      { name: 'knowledge_base_id', kind: 'knowledge_base' },
      t('query'),
      n('top_k'),
      n('score_threshold'),
      { name: 'mode', kind: { choices: ['hybrid', 'vector', 'keyword', 'graph'] } },
      { name: 'rerank', kind: 'boolean' },
    ],
    initial: () => ({ knowledge_base_id: '', query: '' }),
    outputs: fixed('context', 'passages', 'citations', 'answerable', 'coverage', 'language'),
  },
  llm: {
    fields: [{ name: 'model', kind: 'model' }, t('system', true), t('prompt'), n('temperature'), n('max_tokens')],
    initial: () => ({ model: '', prompt: '' }),
    outputs: fixed('text'),
  },
  template: { fields: [t('template')], initial: () => ({ template: '' }), outputs: fixed('output') },
  condition: {
    fields: [t('left'), { name: 'operator', kind: { choices: ['equals', 'not_equals', 'contains', 'empty', 'not_empty'] } }, t('right', true)],
    initial: () => ({ left: '', operator: 'not_empty' }),
    outputs: fixed('result'),
    branches: () => [true, false],
  },
  direct_reply: { fields: [t('template')], initial: () => ({ template: '' }), outputs: fixed('answer') },
  question_classifier: {
    fields: [t('query'), j('classes'), { name: 'model', kind: 'text' }],
    initial: () => ({
      query: '{{start.question}}',
      classes: [
        { name: 'product', description: 'Questions about the product' },
        { name: 'other', description: 'Anything else' },
      ],
    }),
    outputs: fixed('class', 'scores'),
    branches: (config) => namesIn(config.classes),
  },
  parameter_extractor: {
    fields: [t('text'), j('schema'), { name: 'model', kind: 'text' }],
    initial: () => ({ text: '{{start.question}}', schema: { type: 'object', properties: { email: { type: 'string', format: 'email' } } } }),
    outputs: (config) => ['data', 'missing', ...keysOf(config.schema && typeof config.schema === 'object' && 'properties' in config.schema ? config.schema.properties : undefined)],
  },
  iteration: {
    fields: [t('items'), j('graph'), n('parallelism')],
    initial: () => ({
      items: '',
      graph: {
        nodes: [
          { id: 'start', type: 'start', config: { inputs: [{ name: 'item', type: 'string' }] } },
          { id: 'reply', type: 'direct_reply', config: { template: '{{start.item}}' } },
        ],
        edges: [{ from: 'start', to: 'reply' }],
      },
    }),
    outputs: fixed('results'),
  },
  variable_aggregator: { fields: [j('values')], initial: () => ({ values: [''] }), outputs: fixed('output') },
  end: { fields: [j('outputs')], initial: () => ({ outputs: { result: '' } }), outputs: (config) => keysOf(config.outputs) },
  http_request: {
    fields: [
      { name: 'method', kind: { choices: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] } },
      t('url'),
      j('headers'),
      j('secret_headers'),
      t('body', true),
      { name: 'body_type', kind: { choices: ['json', 'form', 'text'] } },
      n('timeout_ms'),
      n('max_response_bytes'),
      n('retries'),
    ],
    initial: () => ({ method: 'GET', url: 'https://example.com/' }),
    outputs: fixed('status', 'headers', 'body', 'json'),
  },
  code: { fields: [t('code'), j('inputs'), n('time_limit_ms')], initial: () => ({ code: 'return inputs;', inputs: {} }), outputs: fixed('result') },
};

/** The palette's order: the six a first workflow needs, then the rest. */
export const PALETTE = Object.keys(NODE_TYPES);

const specOf = (type: string): TypeSpec | undefined => NODE_TYPES[type];

export const outputsOf = (node: CanvasNode): string[] => specOf(node.type)?.outputs(node.config) ?? [];

/** The form fields of a node: its type's, then any other key its config holds (as JSON, so nothing is lost). */
export function fieldsOf(node: CanvasNode): FieldSpec[] {
  const known = specOf(node.type)?.fields ?? [];
  const names = new Set(known.map((field) => field.name));
  return [...known, ...Object.keys(node.config).filter((name) => !names.has(name)).map(j)];
}

export const branchesOf = (node: CanvasNode): (boolean | string)[] | undefined => specOf(node.type)?.branches?.(node.config);

export const initialConfig = (type: string): Record<string, unknown> => specOf(type)?.initial() ?? {};

/** A canvas not yet saved begins with the node every workflow needs, as the API's default graph does. */
export const startOnly = (): CanvasGraph => ({ nodes: [{ id: 'start', type: 'start', config: initialConfig('start') }], edges: [] });

/**
 * The `when` a new edge out of `from` takes: a branching node's first value no edge of it carries
 * yet (a condition's true, then false), so an edge drawn by mouse is a branch at once; undefined
 * out of a node that does not branch.
 */
export function unusedBranch(graph: CanvasGraph, from: string): boolean | string | undefined {
  const node = graph.nodes.find((n) => n.id === from);
  const values = node && branchesOf(node);
  if (!values) return undefined;
  const used = new Set(graph.edges.filter((edge) => edge.from === from).map((edge) => edge.when));
  return values.find((value) => !used.has(value)) ?? values[0];
}
