import { useEffect, useState } from 'react';
import { Button, Label, ProgressBar } from 'react-aria-components';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import type { KnowledgeBase } from './context.ts';
import { useKnowledgeBaseText } from './messages.ts';

type Reindex = NonNullable<KnowledgeBase['reindex']>;
const POLL_MS = 1000;
const underWay = (reindex: Reindex | null) => reindex?.status === 'queued' || reindex?.status === 'running';

type Props = {
  knowledgeBase: KnowledgeBase;
  setKnowledgeBase(next: KnowledgeBase): void;
  canWrite: boolean;
  /** The embedding model was changed here: documents indexed before keep their old vectors until re-indexed. */
  modelChanged: boolean;
  /** Heard once a re-index is accepted: the change has been acted on. */
  onStarted(): void;
};

/**
 * Re-indexing (POST …/reindex): the action, and the re-index's progress read from the knowledge
 * base (its `reindex`) every second until it has finished.
 */
export function ReindexPanel({ knowledgeBase, setKnowledgeBase, canWrite, modelChanged, onStarted }: Props) {
  const t = useKnowledgeBaseText();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const reindex = knowledgeBase.reindex;
  const path = { params: { path: { kb_id: knowledgeBase.id } } };

  useEffect(() => {
    if (!underWay(reindex)) return;
    const timer = setTimeout(() => {
      api.GET('/v1/knowledge-bases/{kb_id}', path).then(({ data }) => data && setKnowledgeBase(data), setError);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [reindex]);

  async function start() {
    setPending(true);
    setError(null);
    try {
      const { data } = await api.POST('/v1/knowledge-bases/{kb_id}/reindex', path);
      setKnowledgeBase({ ...knowledgeBase, reindex: data! });
      onStarted();
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card stack" aria-labelledby="kb-reindex">
      <h3 id="kb-reindex">{t('reindexTitle')}</h3>
      {modelChanged && (
        <p role="status" className="notice">
          {t('reindexNeeded')}
        </p>
      )}
      <p className="muted">{t('reindexHint')}</p>
      {reindex && <ReindexState reindex={reindex} />}
      <ErrorNote error={error} />
      {canWrite && (
        <div>
          <Button className={`react-aria-Button${modelChanged ? ' primary' : ''}`} onPress={() => void start()} isPending={pending} isDisabled={underWay(reindex)}>
            {t('reindex')}
          </Button>
        </div>
      )}
    </section>
  );
}

function ReindexState({ reindex }: { reindex: Reindex }) {
  const t = useKnowledgeBaseText();
  if (underWay(reindex)) {
    const total = reindex.total;
    const words = total === null ? t('reindexQueued') : t('reindexProgress', { done: reindex.done, total });
    return (
      <ProgressBar
        value={reindex.done}
        maxValue={Math.max(total ?? 0, reindex.done, 1)}
        isIndeterminate={total === null}
        valueLabel={words}
        className="react-aria-ProgressBar reindex-progress"
      >
        {({ percentage, valueText }) => (
          <>
            <Label>{t('reindexing', { model: reindex.embedding_model })}</Label>
            <span className="value">{valueText}</span>
            <div className="bar">
              <div className="fill" style={{ width: `${total === null ? 0 : (percentage ?? 0)}%` }} />
            </div>
          </>
        )}
      </ProgressBar>
    );
  }
  if (reindex.status === 'failed') {
    return (
      <p role="alert" className="error-note">
        {t('reindexFailed', { message: reindex.error?.message ?? '' })}
      </p>
    );
  }
  return (
    <p role="status">
      {t('reindexDone', { count: reindex.done, chunks: reindex.chunks, model: reindex.embedding_model, at: new Date(reindex.finished_at ?? reindex.requested_at).toLocaleString() })}
    </p>
  );
}
