/**
 * The workflow node types: one file per type in this folder, each a NodeType descriptor
 * (node-type.ts) holding the whole type (config schema, outputs, graph rules, executor), and this
 * one map of them. Everything that depends on node types reads the map:
 *   schemas/workflow.ts     the node union (type + config), hence the OpenAPI document and schemas/json
 *   graph.ts                outputs, templates, entry / branch / reply rules, knowledge bases named
 *   the runner              `run` (src/app/workflow-engine/execute-node.ts), entry, branchOn, runOutputs
 *                           (consumers/runner/execute-run.ts)
 *   the workflow service    names: the knowledge bases (access, existence) and chat models a node names
 *
 * Why one file per type here, in src/domain: the graph checker is domain (it only may import the
 * domain and schemas, .dependency-cruiser.cjs) and the graph schema lives in schemas/, so the
 * definitions must sit in one of those two. Executors need I/O (retrieval, models); instead of
 * splitting each type into a pure half and an app half (and so two maps), an executor gets that
 * I/O through the NodeServices port, which src/app implements: the file stays pure, and a new node
 * type touches its file, this map and its test. schemas/workflow.ts imports this map (schemas →
 * domain); so no file of this folder may import schemas/workflow.ts, or that would be a cycle.
 */
import type { z } from 'zod';
import { code } from './code.ts';
import { condition } from './condition.ts';
import { directReply } from './direct-reply.ts';
import { end } from './end.ts';
import { iteration } from './iteration.ts';
import { httpRequest } from './http-request.ts';
import { knowledgeRetrieval } from './knowledge-retrieval.ts';
import { llm } from './llm.ts';
import type { NodeType } from './node-type.ts';
import { parameterExtractor } from './parameter-extractor.ts';
import { questionClassifier } from './question-classifier.ts';
import { start } from './start.ts';
import { template } from './template.ts';
import { variableAggregator } from './variable-aggregator.ts';

/** In the order the node union lists them (the OpenAPI document and schemas/json follow it). */
export const NODE_TYPES = nodeTypeMap({
  start,
  knowledge_retrieval: knowledgeRetrieval,
  llm,
  template,
  condition,
  direct_reply: directReply,
  question_classifier: questionClassifier,
  parameter_extractor: parameterExtractor,
  iteration,
  variable_aggregator: variableAggregator,
  end,
  http_request: httpRequest,
  code,
});

export type NodeTypes = typeof NODE_TYPES;
export type NodeTypeName = keyof NodeTypes;

/** Each key must be its descriptor's type. */
function nodeTypeMap<M extends { [K in keyof M]: { readonly type: K } }>(map: M): M {
  return map;
}

/** A descriptor as code that handles any node sees it: the node's config was parsed by its schema. */
export type AnyNodeType = NodeType<string, z.ZodType<Record<string, unknown>>>;

/** A node as stored in a graph (WorkflowNode, which schemas/workflow.ts builds from this map). */
export type AnyNode = { id: string; type: string; config: object };

export const NODE_TYPE_NAMES = Object.keys(NODE_TYPES) as NodeTypeName[];

export function nodeType(type: string): AnyNodeType {
  const found = (NODE_TYPES as Record<string, unknown>)[type];
  if (!found) throw new Error(`unknown node type ${type}`);
  return found as AnyNodeType;
}

const configOf = (node: AnyNode) => node.config as Record<string, unknown>;

/** The fields a node produces, i.e. what `{{node_id.field}}` may name. */
export function outputFields(node: AnyNode): readonly string[] {
  return nodeType(node.type).outputs(configOf(node));
}

export function describeOutputs(node: AnyNode): string {
  const fields = outputFields(node);
  const describe = nodeType(node.type).describeOutputs;
  return describe ? describe(fields) : `${node.type} outputs ${fields.join(', ')}`;
}

/**
 * Every template a node renders, named by its config field so a fault can point at it: a field
 * holds one template, a list of them (`values.0`) or a map of named ones (`outputs.answer`).
 */
export function templateFields(node: AnyNode): { field: string; template: string }[] {
  const config = configOf(node);
  return nodeType(node.type).templates.flatMap((field) => {
    const value = config[field];
    if (typeof value === 'string') return [{ field, template: value }];
    if (typeof value !== 'object' || value === null) return [];
    return Object.entries(value).flatMap(([key, item]) => (typeof item === 'string' ? [{ field: `${field}.${key}`, template: item }] : []));
  });
}

/** The ids a node's config names of one kind, each with its config field. */
export function namedIn(node: AnyNode, kind: 'knowledgeBases' | 'chatModels'): { field: string; id: string }[] {
  const config = configOf(node);
  return (nodeType(node.type).names?.[kind] ?? []).flatMap((field) => {
    const value = config[field];
    return typeof value === 'string' ? [{ field, id: value }] : [];
  });
}

const typesWhere = (test: (type: AnyNodeType) => boolean) => NODE_TYPE_NAMES.filter((name) => test(nodeType(name)));

/** Types a run may begin with, types that branch, types that reply: as words for messages ("start", "a or b"). */
export const ENTRY_TYPES = typesWhere((type) => type.entry === true).join(' or ');
export const BRANCH_TYPES = typesWhere((type) => type.branchOn !== undefined).join(' or ');
export const REPLY_TYPES = typesWhere(isReplyType).join(' or ');

/** A node of this type ends a run with outputs: an answer (direct_reply) or named outputs (end). */
export function isReplyType(type: AnyNodeType): boolean {
  return type.runOutputs?.answer !== undefined || type.runOutputs?.all === true;
}

/** What an edge out of a branching node may carry as `when`; undefined for a node that does not branch. */
export function branchValues(node: AnyNode): readonly (boolean | string)[] | undefined {
  const type = nodeType(node.type);
  if (type.branchOn === undefined) return undefined;
  return type.branches?.(configOf(node)) ?? [true, false];
}

/** The graph a node holds in its config (iteration's), as stored: unparsed, checked by graph.ts. */
export function subgraphOf(node: AnyNode): unknown {
  const field = nodeType(node.type).subgraph;
  return field === undefined ? undefined : configOf(node)[field];
}
