import { type FormEvent, useState } from 'react';
import { Button, Form, Input, Label, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorNote } from '../../../ui/ErrorNote.tsx';
import type { CanvasGraph } from './graph.ts';
import { useCanvasText } from './messages.ts';
import { runCitations } from './run-citations.ts';
import { statusOfStep } from './run-status.ts';
import type { useRun } from './use-run.ts';
import type { WorkflowRun } from './workflow-api.ts';

type Declared = { name: string; type: string };
type Props = { graph: CanvasGraph; runs: ReturnType<typeof useRun>; canRun: boolean; runHint: string | null };

/** The start node's declared inputs: what the run form asks for. */
function declaredInputs(graph: CanvasGraph): Declared[] {
  const inputs = graph.nodes.find((node) => node.type === 'start')?.config.inputs;
  if (!Array.isArray(inputs)) return [];
  return inputs.flatMap((input: unknown) =>
    input && typeof input === 'object' && 'name' in input && typeof input.name === 'string' ? [{ name: input.name, type: 'type' in input ? String(input.type) : 'string' }] : [],
  );
}

/** A typed value from what was typed: numbers, booleans and objects as JSON, text as it is; empty is left out. */
function valueOf(text: string, type: string): unknown {
  if (text === '') return undefined;
  if (type === 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The run panel: the inputs, Run (the saved draft, streamed), the outputs at the end, and the earlier runs. */
export function RunPanel({ graph, runs, canRun, runHint }: Props) {
  const t = useCanvasText();
  const declared = declaredInputs(graph);
  const [values, setValues] = useState<Record<string, string>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const inputs = Object.fromEntries(declared.flatMap((input) => {
      const value = valueOf(values[input.name] ?? '', input.type);
      return value === undefined ? [] : [[input.name, value]];
    }));
    void runs.start({ inputs });
  }

  return (
    <section className="run-panel card stack" aria-labelledby="run-panel-title">
      <h2 id="run-panel-title">{t('runTitle')}</h2>
      <Form onSubmit={submit} className="stack">
        {declared.map((input) => (
          <TextField key={input.name} value={values[input.name] ?? ''} onChange={(text) => setValues((v) => ({ ...v, [input.name]: text }))}>
            <Label>{input.name}</Label>
            <Input />
            <span slot="description" className="hint">{input.type}</span>
          </TextField>
        ))}
        {runHint && <p className="hint">{runHint}</p>}
        <Button type="submit" className="react-aria-Button primary" isDisabled={!canRun || runs.running}>
          {runs.running ? t('running') : t('run')}
        </Button>
      </Form>
      <ErrorNote error={runs.error} />
      {runs.run && <RunOutcome run={runs.run} />}
      <RunHistory runs={runs.history} shown={runs.run?.id} onOpen={(run) => void runs.show(run)} />
    </section>
  );
}

function RunOutcome({ run }: { run: WorkflowRun }) {
  const t = useCanvasText();
  const answer = run.outputs?.answer;
  const citations = runCitations(run.outputs?.citations);
  return (
    <div className="run-outcome stack" aria-live="polite">
      <p>
        <span className={`status run-${run.status}`}>{t(`status_${statusOfStep(run)}`)}</span>{' '}
        {run.elapsed_ms !== null && t('elapsed', { ms: run.elapsed_ms })}
      </p>
      {typeof answer === 'string' && (
        <>
          <h3>{t('answer')}</h3>
          <p className="run-answer">{answer}</p>
        </>
      )}
      {citations.length > 0 && (
        <>
          <h3>{t('citations')}</h3>
          <ol className="run-citations">
            {citations.map((citation) => {
              const page = citation.page === null ? null : t('citationPage', { page: citation.page });
              return (
                <li key={citation.key}>
                  {citation.href ? (
                    <Link to={citation.href} aria-label={page ? t('openDocument', { source: citation.source, page: citation.page }) : undefined}>
                      {citation.source}
                    </Link>
                  ) : (
                    <strong>{citation.source}</strong>
                  )}
                  {page && <span className="muted">, {page}</span>}
                  {citation.quote && <span className="citation-quote"> “{citation.quote}”</span>}
                </li>
              );
            })}
          </ol>
        </>
      )}
      {run.error && <p className="error-note">{`${run.error.node_id ?? ''} ${run.error.code}: ${run.error.message}`}</p>}
      {answer === undefined && run.outputs && <pre>{JSON.stringify(run.outputs, null, 2)}</pre>}
    </div>
  );
}

function RunHistory({ runs, shown, onOpen }: { runs: WorkflowRun[]; shown: string | undefined; onOpen(run: WorkflowRun): void }) {
  const t = useCanvasText();
  const { i18n } = useTranslation();
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' });
  return (
    <section aria-labelledby="run-history-title">
      <h3 id="run-history-title">{t('historyTitle')}</h3>
      {runs.length === 0 && <p className="muted">{t('historyEmpty')}</p>}
      <ul className="run-history">
        {runs.map((run) => (
          <li key={run.id}>
            <Button className={`react-aria-Button quiet${run.id === shown ? ' current' : ''}`} onPress={() => onOpen(run)} aria-current={run.id === shown ? 'true' : undefined}>
              {t('historyEntry', { when: dates.format(new Date(run.created_at)), status: t(`status_${statusOfStep(run)}`), version: run.workflow_version })}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
