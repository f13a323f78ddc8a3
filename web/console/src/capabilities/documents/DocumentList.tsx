import { Cell, Column, Row, Table, TableBody, TableHeader } from 'react-aria-components';
import { Link } from 'react-router';
import { useCan } from '../../session/session.tsx';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { useKnowledgeBase } from '../knowledge-bases/context.ts';
import { RowActions, RowProgress, RowStatus } from './DocumentRowCells.tsx';
import './documents.css';
import { useDocumentText } from './messages.ts';
import { UploadZone } from './UploadZone.tsx';
import { useDocumentRows } from './useDocumentRows.ts';

/** /knowledge-bases/:kbId: upload files, and watch every document of the base go from queued to ready, live. */
export default function DocumentList() {
  const t = useDocumentText();
  const canWrite = useCan('write');
  const { knowledgeBase } = useKnowledgeBase();
  const { rows, duplicates, newVersions, loaded, error, reconnecting, upload, remove, uploadAgain } = useDocumentRows(knowledgeBase.id);
  const base = `/knowledge-bases/${encodeURIComponent(knowledgeBase.id)}/documents/`;

  return (
    <div className="stack">
      {canWrite && <UploadZone onFiles={upload} />}
      <ErrorNote error={error} />
      {duplicates.length > 0 && (
        // The status is a box around the list: on the <ul> itself the role took its list semantics away.
        <div className="duplicates card" role="status" aria-label={t('duplicates')}>
          <ul>
            {duplicates.map((d, i) => (
              <li key={i}>{t('duplicate', { file: d.file, existing: d.existing })}</li>
            ))}
          </ul>
        </div>
      )}
      {newVersions.length > 0 && (
        // The status is a box around the list: on the <ul> itself the role took its list semantics away.
        <div className="duplicates card" role="status" aria-label={t('newVersions')}>
          <ul>
            {newVersions.map((v, i) => (
              <li key={i}>{t('newVersion', { file: v.file, version: v.version })}</li>
            ))}
          </ul>
        </div>
      )}
      {reconnecting && (
        <p className="muted" role="status">
          {t('streamReconnecting')}
        </p>
      )}
      {!loaded && !error && rows.length === 0 && <p aria-live="polite">{t('loading')}</p>}
      {loaded && rows.length === 0 && (
        <div className="card empty-state">
          <p>{t('empty')}</p>
          {canWrite && <p className="muted">{t('emptyWrite')}</p>}
        </div>
      )}
      {rows.length > 0 && (
        <Table aria-label={t('tableLabel')} className="react-aria-Table documents-table">
          <TableHeader>
            <Column isRowHeader>{t('name')}</Column>
            <Column>{t('status')}</Column>
            <Column>{t('progress')}</Column>
            <Column>{t('pages')}</Column>
            <Column>{t('chunks')}</Column>
            {canWrite ? <Column>{t('actions')}</Column> : null}
          </TableHeader>
          <TableBody items={rows} dependencies={[canWrite, t]}>
            {(row) => (
              <Row id={row.id} className="react-aria-Row document-row">
                <Cell>{row.stored ? <Link to={base + encodeURIComponent(row.id)}>{row.name}</Link> : row.name}</Cell>
                <Cell>
                  <RowStatus row={row} />
                </Cell>
                <Cell>
                  <RowProgress row={row} />
                </Cell>
                <Cell>{row.pageCount ?? '–'}</Cell>
                <Cell>{row.chunkCount ?? '–'}</Cell>
                {canWrite ? (
                  <Cell>
                    <RowActions row={row} onDelete={remove} onUploadAgain={uploadAgain} />
                  </Cell>
                ) : null}
              </Row>
            )}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
