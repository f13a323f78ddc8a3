import { useCallback, useEffect, useRef, useState } from 'react';
import { applyRunEvent, statusesOf, type Statuses } from './run-status.ts';
import { listRuns, type NodeAttempt, type RunRequest, runTrace, streamRun, type WorkflowRun } from './workflow-api.ts';

/**
 * Runs of the workflow on screen: a run streamed as it happens (each node coloured as its events
 * arrive), the run on show with its trace (every node attempt: inputs, outputs, time, error), and
 * the earlier runs, any of which can be put on show instead.
 */
export function useRun(workflowId: string | undefined) {
  const [statuses, setStatuses] = useState<Statuses>({});
  const [run, setRun] = useState<WorkflowRun | null>(null);
  const [trace, setTrace] = useState<NodeAttempt[]>([]);
  const [history, setHistory] = useState<WorkflowRun[]>([]);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const stream = useRef<AbortController | null>(null);

  const refreshHistory = useCallback(async () => {
    if (!workflowId) return;
    try {
      setHistory(await listRuns(workflowId));
    } catch (failure) {
      setError(failure);
    }
  }, [workflowId]);

  useEffect(() => {
    void refreshHistory();
    return () => stream.current?.abort();
  }, [refreshHistory]);

  /** Puts a finished run on show, with its trace: every node attempt. */
  const show = useCallback(async (shown: WorkflowRun) => {
    setRun(shown);
    try {
      const steps = await runTrace(shown.id);
      setTrace(steps);
      setStatuses(statusesOf(steps));
    } catch (failure) {
      setError(failure);
    }
  }, []);

  async function start(request: RunRequest) {
    if (!workflowId) return;
    stream.current?.abort();
    const controller = new AbortController();
    stream.current = controller;
    setRunning(true);
    setError(null);
    setRun(null);
    setTrace([]);
    setStatuses({});
    // The stream's last event is the finished run, as GET /v1/workflow-runs/{id} answers it.
    const outcome: { run: WorkflowRun | null } = { run: null };
    try {
      await streamRun(
        workflowId,
        request,
        (message) => {
          if (message.event === 'workflow_run') outcome.run = JSON.parse(message.data);
          else if (message.event === 'error') setError(new Error(message.data));
          else setStatuses((current) => applyRunEvent(current, message.event, message.data));
        },
        controller.signal,
      );
      if (outcome.run) await show(outcome.run);
      await refreshHistory();
    } catch (failure) {
      if (!controller.signal.aborted) setError(failure);
    } finally {
      setRunning(false);
    }
  }

  return { statuses, run, trace, history, running, error, start, show };
}
