import { diffWords } from 'diff';
import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { useVersionText } from './version-messages.ts';
import { type DiffChunk, diffVersions, type VersionDiff } from './versions.ts';

type Props = { kbId: string; documentId: string; version: number; against: number; choices: number[]; onAgainst(version: number): void; onClose(): void };

/** Version n's chunks against version m's (GET …/versions/{n}/diff?against=m): added, removed, changed (word by word). */
export function VersionDiffView({ kbId, documentId, version, against, choices, onAgainst, onClose }: Props) {
  const t = useVersionText();
  const [diff, setDiff] = useState<VersionDiff | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setDiff(null);
    setError(null);
    diffVersions(kbId, documentId, version, against).then(setDiff, setError);
  }, [kbId, documentId, version, against]);

  const title = t('diffTitle', { version, against });
  return (
    <section className="card stack version-diff" aria-label={title}>
      <h3>{title}</h3>
      <label>
        {t('against')}{' '}
        <select value={against} onChange={(event) => onAgainst(Number(event.target.value))}>
          {choices.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote error={error} />
      {!diff && !error && <p aria-live="polite">{t('loading')}</p>}
      {diff && (
        <>
          <p role="status">{t('diffSummary', { added: diff.added.length, removed: diff.removed.length, changed: diff.changed.length, unchanged: diff.unchanged })}</p>
          {diff.added.length + diff.removed.length + diff.changed.length === 0 && <p className="muted">{t('noChanges')}</p>}
          <Chunks label={t('added')} className="diff-added" chunks={diff.added} />
          <Chunks label={t('removed')} className="diff-removed" chunks={diff.removed} />
          {diff.changed.length > 0 && (
            <section aria-label={t('changed')}>
              <h4>{t('changed')}</h4>
              <ul className="diff-list">
                {diff.changed.map(({ before, after }) => (
                  <li key={`${before.chunk_id}>${after.chunk_id}`} className="diff-changed">
                    <PageOf chunk={after} />
                    <p className="chunk-text" aria-label={t('after')}>
                      {diffWords(before.text, after.text).map((part, i) =>
                        part.added ? <ins key={i}>{part.value}</ins> : part.removed ? <del key={i}>{part.value}</del> : <span key={i}>{part.value}</span>,
                      )}
                    </p>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
      <div>
        <Button onPress={onClose}>{t('closeDiff')}</Button>
      </div>
    </section>
  );
}

function Chunks({ label, className, chunks }: { label: string; className: string; chunks: DiffChunk[] }) {
  if (chunks.length === 0) return null;
  return (
    <section aria-label={label}>
      <h4>{label}</h4>
      <ul className="diff-list">
        {chunks.map((chunk) => (
          <li key={chunk.chunk_id} className={className}>
            <PageOf chunk={chunk} />
            <p className="chunk-text">{chunk.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PageOf({ chunk }: { chunk: DiffChunk }) {
  const t = useVersionText();
  return <span className="chunk-meta">{chunk.page === null ? t('noPage') : t('page', { page: chunk.page })}</span>;
}
