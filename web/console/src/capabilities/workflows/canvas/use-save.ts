import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiFailure } from '../../../api/client.ts';
import { nodeOfParam } from './faults.ts';
import type { CanvasGraph } from './graph.ts';
import { createWorkflow, type GraphFault, loadWorkflow, publishWorkflow, saveWorkflow, validateGraph, type Workflow } from './workflow-api.ts';

type Draft = { name: string; description: string | null; graph: CanvasGraph };
export type SaveOutcome = 'saved' | 'invalid' | 'conflict' | 'failed' | 'published';

/**
 * Saving as the API wants it: the graph checked first (POST /validate, whose messages go on the
 * nodes), then PUT with If-Match the version this screen started from. A 409 means someone else
 * saved in between: the screen keeps the user's graph as it is and holds theirs, to reload or to
 * overwrite (PUT again with their version). A workflow not yet created is POSTed on its first save.
 */
export function useSave(stored: Workflow | null, onReload: (theirs: Workflow) => void) {
  const navigate = useNavigate();
  const [saved, setSaved] = useState<Workflow | null>(stored);
  const [faults, setFaults] = useState<GraphFault[]>([]);
  const [theirs, setTheirs] = useState<Workflow | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);

  async function attempt(work: () => Promise<SaveOutcome>): Promise<SaveOutcome> {
    setPending(true);
    setError(null);
    setOutcome(null);
    let result: SaveOutcome = 'failed';
    try {
      result = await work();
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
    setOutcome(result);
    return result;
  }

  async function put(draft: Draft, version: number): Promise<SaveOutcome> {
    try {
      const next = saved ? await saveWorkflow(saved.id, draft, version) : await createWorkflow(draft);
      setSaved(next);
      setTheirs(null);
      if (!saved) void navigate(`/workflows/${encodeURIComponent(next.id)}`, { replace: true });
      return 'saved';
    } catch (failure) {
      // 409 concurrent_modification is this API's answer (as for knowledge bases); 412 is HTTP's own for a failed If-Match.
      if (failure instanceof ApiFailure && (failure.status === 409 || failure.status === 412) && saved) {
        setTheirs(await loadWorkflow(saved.id));
        return 'conflict';
      }
      if (failure instanceof ApiFailure && failure.status === 400 && failure.param?.startsWith('graph')) {
        setFaults([{ node_id: nodeOfParam(failure.param, draft.graph), code: failure.code, message: failure.message, param: failure.param }]);
        return 'invalid';
      }
      throw failure;
    }
  }

  return {
    saved,
    faults,
    theirs,
    error,
    pending,
    outcome,
    save: (draft: Draft) =>
      attempt(async () => {
        const check = await validateGraph(draft.graph);
        setFaults(check.errors);
        if (!check.valid) return 'invalid';
        return put(draft, saved?.version ?? 0);
      }),
    /** Ours replaces theirs: the same save, against the version they made. */
    overwrite: (draft: Draft) => attempt(() => put(draft, theirs!.version)),
    reloadTheirs() {
      if (!theirs) return;
      setSaved(theirs);
      setTheirs(null);
      setFaults([]);
      onReload(theirs);
    },
    publish: () =>
      attempt(async () => {
        setSaved(await publishWorkflow(saved!.id));
        return 'published';
      }),
  };
}
