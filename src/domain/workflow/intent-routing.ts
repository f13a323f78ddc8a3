import { DEFAULT_TIMEOUT_MS, type WorkflowGraph } from '../../../schemas/workflow.ts';
import { GROUNDING_INSTRUCTIONS } from '../chat/prompt.ts';

/** One knowledge base the flow routes to: its class is its name, described by its description. */
export type Route = { knowledgeBaseId: string; name: string; description: string | null };

/**
 * The flow behind `template: "intent-routing"`: the question is classified (question_classifier,
 * one class per knowledge base, its name and description), retrieved from the knowledge base of its
 * class and answered grounded in it as knowledge-qa answers; a variable_aggregator joins the
 * branches into one reply. Classes are named after the knowledge bases, made unique.
 */
export function intentRoutingGraph(routes: readonly Route[], model = 'kbqa-extractive'): WorkflowGraph {
  const timeout_ms = DEFAULT_TIMEOUT_MS;
  const names = uniqueNames(routes.map((route) => route.name));
  const classes = routes.map((route, i) => ({ name: names[i]!, description: route.description?.trim() || route.name }));
  const branches = routes.flatMap((route, i) => [
    { id: `retrieve_${i + 1}`, type: 'knowledge_retrieval' as const, timeout_ms, config: { knowledge_base_id: route.knowledgeBaseId, query: '{{start.question}}' } },
    {
      id: `llm_${i + 1}`,
      type: 'llm' as const,
      timeout_ms,
      config: { model, system: `${GROUNDING_INSTRUCTIONS}\n\nPassages:\n\n{{retrieve_${i + 1}.context}}`, prompt: '{{start.question}}' },
    },
  ]);
  return {
    nodes: [
      { id: 'start', type: 'start', timeout_ms, config: { inputs: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'route', type: 'question_classifier', timeout_ms, config: { query: '{{start.question}}', classes } },
      ...branches,
      { id: 'join', type: 'variable_aggregator', timeout_ms, config: { values: routes.map((_, i) => `{{llm_${i + 1}.text}}`) } },
      { id: 'answer', type: 'direct_reply', timeout_ms, config: { template: '{{join.output}}' } },
    ],
    edges: [
      { from: 'start', to: 'route' },
      ...routes.flatMap((_, i) => [
        { from: 'route', to: `retrieve_${i + 1}`, when: names[i]! },
        { from: `retrieve_${i + 1}`, to: `llm_${i + 1}` },
        { from: `llm_${i + 1}`, to: 'join' },
      ]),
      { from: 'join', to: 'answer' },
    ],
  };
}

/** Class names are compared case-insensitively: a second "Docs" becomes "Docs (2)". */
function uniqueNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((raw) => {
    const name = raw.trim().slice(0, 90) || 'knowledge base';
    const count = (seen.get(name.toLowerCase()) ?? 0) + 1;
    seen.set(name.toLowerCase(), count);
    return count === 1 ? name : `${name} (${count})`;
  });
}
