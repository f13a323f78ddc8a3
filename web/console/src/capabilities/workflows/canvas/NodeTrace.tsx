import { useState } from 'react';
import { Button, Label, TextArea, TextField } from 'react-aria-components';
import { ErrorNote } from '../../../ui/ErrorNote.tsx';
import { type CanvasGraph, type CanvasNode, upstreamOf } from './graph.ts';
import { useCanvasText } from './messages.ts';
import { statusOfStep } from './run-status.ts';
import { type NodeAttempt, type NodeStep, runOneNode, type WorkflowRun } from './workflow-api.ts';

type Props = { node: CanvasNode; graph: CanvasGraph; workflowId: string | undefined; run: WorkflowRun | null; trace: NodeAttempt[]; onRunFrom(nodeId: string): void };

/**
 * The debugger's part of the panel: each attempt of this node in the run on show (inputs,
 * outputs, time, error), running this node alone on its upstream nodes' outputs (those of the run
 * on show to start with, editable), and running the workflow again from here.
 */
export function NodeTrace({ node, graph, workflowId, run, trace, onRunFrom }: Props) {
  const t = useCanvasText();
  const attempts = trace.filter((step) => step.node_id === node.id);
  return (
    <section className="stack" aria-labelledby="node-trace-title">
      <h3 id="node-trace-title">{t('traceTitle')}</h3>
      {!run && <p className="muted">{t('traceNone')}</p>}
      {run && attempts.length === 0 && <p className="muted">{t('traceNotRun')}</p>}
      {attempts.map((step) => (
        <TraceStep key={`${step.node_id}.${step.attempt ?? 1}`} step={step} />
      ))}
      {workflowId && <RunAlone key={node.id} node={node} graph={graph} workflowId={workflowId} trace={trace} />}
      <Button onPress={() => onRunFrom(node.id)} isDisabled={!run}>
        {t('runFromHere')}
      </Button>
    </section>
  );
}

function TraceStep({ step }: { step: NodeStep }) {
  const t = useCanvasText();
  return (
    <div className="trace-step">
      <p>
        <span className={`status run-${statusOfStep(step)}`}>{t(`status_${statusOfStep(step)}`)}</span>{' '}
        {t('attempt', { n: step.attempt ?? 1 })} · {step.elapsed_ms === null ? '—' : t('elapsed', { ms: Math.round(step.elapsed_ms * 10) / 10 })}
      </p>
      {/* Long values scroll inside their box, which takes focus so the keyboard can scroll it too. */}
      <h4>{t('inputs')}</h4>
      <pre tabIndex={0}>{JSON.stringify(step.inputs, null, 2)}</pre>
      <h4>{t('outputs')}</h4>
      <pre tabIndex={0}>{JSON.stringify(step.outputs, null, 2)}</pre>
      {step.error && <p className="error-note">{`${step.error.code}: ${step.error.message}`}</p>}
    </div>
  );
}

/** POST /v1/workflows/{id}/nodes/{node_id}/run with the upstream outputs as written here. */
function RunAlone({ node, graph, workflowId, trace }: { node: CanvasNode; graph: CanvasGraph; workflowId: string; trace: NodeAttempt[] }) {
  const t = useCanvasText();
  const recorded = Object.fromEntries(upstreamOf(graph, node.id).map((up) => [up.id, trace.find((step) => step.node_id === up.id)?.outputs ?? {}]));
  const [text, setText] = useState(() => JSON.stringify(recorded, null, 2));
  const [result, setResult] = useState<NodeStep | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  async function go() {
    setPending(true);
    setError(null);
    try {
      const inputs: Record<string, Record<string, unknown>> = JSON.parse(text);
      setResult(await runOneNode(workflowId, node.id, inputs));
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  }
  return (
    <div className="stack">
      <TextField value={text} onChange={setText}>
        <Label>{t('upstreamOutputs')}</Label>
        <TextArea rows={4} className="react-aria-TextArea mono" />
      </TextField>
      <Button onPress={() => void go()} isDisabled={pending}>
        {t('runThisNode')}
      </Button>
      <ErrorNote error={error} />
      {result && (
        <div aria-live="polite">
          <TraceStep step={result} />
        </div>
      )}
    </div>
  );
}
