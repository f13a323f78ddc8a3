import { Cell, Column, Row, Table, TableBody, TableHeader } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { useCan } from '../../session/session.tsx';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import './knowledge-bases.css';
import { useKnowledgeBaseText } from './messages.ts';
import { NewKnowledgeBaseDialog } from './NewKnowledgeBaseDialog.tsx';
import { useResource } from './useResource.ts';

/** /knowledge-bases: the workspace's knowledge bases, newest first, and (with write) a new one. */
export default function KnowledgeBaseList() {
  const t = useKnowledgeBaseText();
  const canWrite = useCan('write');
  const { i18n } = useTranslation();
  const { data, error } = useResource(async (signal) => (await api.GET('/v1/knowledge-bases', { params: { query: { limit: 100 } }, signal })).data!.data, []);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <section className="stack">
      <div className="spread">
        <div>
          <h1>{t('title')}</h1>
          <p className="muted">{t('intro')}</p>
        </div>
        {canWrite && <NewKnowledgeBaseDialog />}
      </div>
      <ErrorNote error={error} />
      {!data && !error && <p aria-live="polite">{t('loading')}</p>}
      {data?.length === 0 && (
        <div className="card empty-state">
          <h2>{t('emptyTitle')}</h2>
          <p>{canWrite ? t('emptyWrite') : t('emptyRead')}</p>
        </div>
      )}
      {data && data.length > 0 && (
        <Table aria-label={t('listLabel')} className="react-aria-Table kb-table">
          <TableHeader>
            <Column isRowHeader>{t('name')}</Column>
            <Column>{t('description')}</Column>
            <Column>{t('documents')}</Column>
            <Column>{t('chunks')}</Column>
            <Column>{t('created')}</Column>
          </TableHeader>
          <TableBody items={data}>
            {(kb) => (
              <Row id={kb.id}>
                <Cell>
                  <Link to={`/knowledge-bases/${encodeURIComponent(kb.id)}`}>{kb.name}</Link>
                </Cell>
                <Cell className="muted">{kb.description}</Cell>
                <Cell>{kb.document_count}</Cell>
                <Cell>{kb.chunk_count}</Cell>
                <Cell>{dates.format(new Date(kb.created_at))}</Cell>
              </Row>
            )}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
