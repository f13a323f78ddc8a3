import { Button, FileTrigger, Label, ProgressBar } from 'react-aria-components';
import { ConfirmButton } from '../knowledge-bases/ConfirmButton.tsx';
import { useServerText } from '../../i18n/server-text.ts';
import { useDocumentText } from './messages.ts';
import { type DocumentRow, percentDone, phaseOf } from './rows.ts';

/** A file's way from upload to ready as one bar, named by the file (several bars on a screen). */
export function RowProgress({ row }: { row: DocumentRow }) {
  const t = useDocumentText();
  const percent = percentDone(row);
  const phase = phaseOf(row);
  const words = phase === 'failed' ? t('failed') : `${t(phase)} ${t('progressValue', { percent })}`;
  return (
    <ProgressBar value={percent} valueLabel={words} className={`react-aria-ProgressBar row-progress progress-${row.status}`}>
      {({ percentage, valueText }) => (
        <>
          <Label className="sr-only">{row.name}</Label>
          <span className="value" aria-hidden="true">
            {valueText}
          </span>
          <div className="bar">
            <div className="fill" style={{ width: `${percentage}%` }} />
          </div>
        </>
      )}
    </ProgressBar>
  );
}

/** The status word (uploading, queued, parsing, indexing, ready, failed: the bar's word too) and, when it failed, why, in words. */
export function RowStatus({ row }: { row: DocumentRow }) {
  const t = useDocumentText();
  const phase = phaseOf(row);
  const server = useServerText();
  const stage = row.error?.stage === 'upload' ? t('stageUpload') : row.error?.stage === 'indexing' ? t('stageIndexing') : t('stageParsing');
  // A refused upload has an API error's code; a document that failed later, a failure code of the server's catalogue.
  const said = row.error && (row.error.stage === 'upload' ? server.apiError(row.error) : server.documentFailure(row.error));
  return (
    <div className="stack-tight">
      <span className={`status status-${phase}`}>{t(phase)}</span>
      {row.status === 'failed' && said && (
        <span className="failure">
          {t('failedAt', { stage, message: said.text })}
          {said.detail && (
            <span className="failure-detail" lang="en">
              {said.detail}
            </span>
          )}
        </span>
      )}
    </div>
  );
}

type ActionsProps = { row: DocumentRow; onDelete(row: DocumentRow): Promise<void>; onUploadAgain(row: DocumentRow, file: File): Promise<void> };

/** Delete (confirmed) and Upload again: the file kept from this visit, else one chosen anew (the API does not give a document's file back). */
export function RowActions({ row, onDelete, onUploadAgain }: ActionsProps) {
  const t = useDocumentText();
  const busy = row.uploaded !== undefined;
  const again = <Button aria-label={t('uploadAgainNamed', { name: row.name })} isDisabled={busy} onPress={row.file ? () => void onUploadAgain(row, row.file!) : undefined}>{t('uploadAgain')}</Button>;
  return (
    <div className="row">
      {row.file ? again : <FileTrigger onSelect={(list) => list?.[0] && void onUploadAgain(row, list[0])}>{again}</FileTrigger>}
      <ConfirmButton label={t('delete')} ariaLabel={t('deleteNamed', { name: row.name })} confirmLabel={t('delete')} cancelLabel={t('cancel')} question={t('confirmDelete', { name: row.name })} onConfirm={() => onDelete(row)} />
    </div>
  );
}
