import { useCallback, useEffect, useState } from 'react';
import { Button, FileTrigger } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../session/session.tsx';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { bytes } from './HistoryPanel.tsx';
import { useVersionText } from './version-messages.ts';
import { VersionDiffView } from './VersionDiffView.tsx';
import { dateOf, type DocumentVersion, downloadVersion, listVersions, restoreVersion, uploadVersion } from './versions.ts';

type Props = { kbId: string; documentId: string; onChanged?(): void };

/** The document's versions as a timeline: upload a new one, download, compare and restore any. */
export function VersionsPanel({ kbId, documentId, onChanged }: Props) {
  const t = useVersionText();
  const canWrite = useCan('write');
  const { i18n } = useTranslation();
  const [versions, setVersions] = useState<DocumentVersion[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [comparing, setComparing] = useState<{ version: number; against: number } | null>(null);

  const reload = useCallback(() => {
    listVersions(kbId, documentId).then(setVersions, setError);
  }, [kbId, documentId]);
  useEffect(reload, [reload]);
  // A version being processed changes its status: read again until none is.
  useEffect(() => {
    if (!versions?.some((v) => v.status === 'queued' || v.status === 'parsing' || v.status === 'indexing')) return;
    const timer = setTimeout(reload, 1000);
    return () => clearTimeout(timer);
  }, [versions, reload]);

  const act = async (work: () => Promise<string>) => {
    setError(null);
    setNotice(null);
    try {
      setNotice(await work());
      reload();
      onChanged?.();
    } catch (failure) {
      setError(failure);
    }
  };

  const upload = (file: File) =>
    act(async () => {
      setProgress(0);
      try {
        const doc = await uploadVersion(kbId, documentId, file, setProgress);
        return doc.deduplicated ? t('sameBytes') : t('uploaded', { version: doc.version ?? '?' });
      } finally {
        setProgress(null);
      }
    });

  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section className="stack">
      <p className="muted">{t('intro')}</p>
      {canWrite && (
        <div>
          <FileTrigger onSelect={(list) => list?.[0] && void upload(list[0])}>
            <Button isDisabled={progress !== null}>{t('uploadNew')}</Button>
          </FileTrigger>
          {progress !== null && <span className="muted"> {t('uploading', { percent: Math.round(progress * 100) })}</span>}
        </div>
      )}
      {notice && (
        <p role="status" className="duplicates card">
          {notice}
        </p>
      )}
      <ErrorNote error={error} />
      {!versions && !error && <p aria-live="polite">{t('loading')}</p>}
      {versions && (
        <ol className="timeline versions-timeline" aria-label={t('versions')}>
          {versions.map((v) => {
            const older = versions.filter((o) => o.version < v.version && o.status !== 'purged').at(-1);
            return (
              <li key={v.version} className={v.status === 'failed' ? 'event-failed' : v.current ? 'version-current' : undefined} aria-label={t('version', { version: v.version })}>
                <strong>{t('version', { version: v.version })}</strong>
                <time className="when" dateTime={dateOf(v.created_at).toISOString()}>
                  {dates.format(dateOf(v.created_at))}
                </time>{' '}
                <span className={`badge version-status status-${v.status}`}>{t(`st_${v.status}`)}</span>
                {v.current && <span className="badge version-status status-current"> {t('current')}</span>}
                <p className="details">
                  {[
                    v.name,
                    v.uploaded_by ? t('by', { who: v.uploaded_by }) : t('unknownUploader'),
                    bytes(v.size),
                    v.pages !== null && t('pages', { count: v.pages }),
                    v.chunks !== null && t('chunks', { count: v.chunks }),
                    v.reused_chunks ? t('reused', { count: v.reused_chunks }) : null,
                    v.superseded_at !== null && t('replacedOn', { date: dates.format(dateOf(v.superseded_at)) }),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </p>
                {v.status !== 'purged' && (
                  <div className="row-actions">
                    <Button onPress={() => void downloadVersion(kbId, documentId, v).catch(setError)}>
                      {t('download')}
                    </Button>
                    {older && (
                      <Button onPress={() => setComparing({ version: v.version, against: older.version })}>
                        {t('compare')}
                      </Button>
                    )}
                    {canWrite && !v.current && v.status !== 'failed' && (
                      <Button
                        onPress={() =>
                          void act(async () => {
                            const { added, doc } = await restoreVersion(kbId, documentId, v.version);
                            return added ? t('restored', { version: v.version, newest: doc.version ?? '?' }) : t('restoreNothing');
                          })
                        }
                      >
                        {t('restore')}
                      </Button>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {comparing && versions && (
        <VersionDiffView
          kbId={kbId}
          documentId={documentId}
          version={comparing.version}
          against={comparing.against}
          choices={versions.filter((v) => v.version !== comparing.version && v.status !== 'purged').map((v) => v.version)}
          onAgainst={(against) => setComparing({ ...comparing, against })}
          onClose={() => setComparing(null)}
        />
      )}
    </section>
  );
}
