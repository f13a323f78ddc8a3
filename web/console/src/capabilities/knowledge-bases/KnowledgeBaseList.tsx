import { Cell, Column, Row, Table, TableBody, TableHeader } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { useCan } from '../../session/session.tsx';
import { ListScreen } from '../../ui/ListScreen.tsx';
import './knowledge-bases.css';
import { useKnowledgeBaseText } from './messages.ts';
import { NewKnowledgeBaseDialog } from './NewKnowledgeBaseDialog.tsx';
import { useResource } from './useResource.ts';

/** /knowledge-bases: the workspace's knowledge bases, newest first, and (with write) a new one. */
export default function KnowledgeBaseList() {
  const t = useKnowledgeBaseText();
  const canWrite = useCan('write');
  const { i18n } = useTranslation();
  const { data, error } = useResource(async (signal) => {
    const kbs = (await api.GET('/v1/knowledge-bases', { params: { query: { limit: 100 } }, signal })).data!.data;
    return Promise.all(kbs.map(async (kb) => ({ ...kb, failed: await failedCount(kb.id, signal) })));
  }, []);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <ListScreen text={{ title: t('title'), intro: t('intro'), loading: t('loading'), emptyTitle: t('emptyTitle'), emptyText: canWrite ? t('emptyWrite') : t('emptyRead') }} action={canWrite && <NewKnowledgeBaseDialog />} items={data} error={error}>
      {(items) => (
        <Table aria-label={t('listLabel')} className="react-aria-Table kb-table">
          <TableHeader>
            <Column isRowHeader>{t('name')}</Column>
            <Column>{t('description')}</Column>
            <Column>{t('documents')}</Column>
            <Column>{t('chunks')}</Column>
            <Column>{t('created')}</Column>
          </TableHeader>
          <TableBody items={items}>
            {(kb) => (
              <Row id={kb.id}>
                <Cell>
                  <Link to={`/knowledge-bases/${encodeURIComponent(kb.id)}`}>{kb.name}</Link>
                </Cell>
                <Cell className="muted">{kb.description}</Cell>
                <Cell>{kb.failed > 0 ? t('documentsFailed', { count: kb.document_count, failed: kb.failed }) : kb.document_count}</Cell>
                <Cell>{kb.chunk_count}</Cell>
                <Cell>{dates.format(new Date(kb.created_at))}</Cell>
              </Row>
            )}
          </TableBody>
        </Table>
      )}
    </ListScreen>
  );
}

/**
 * How many of a knowledge base's documents failed (the count includes them): the API keeps no such
 * total, so the list of failed ones is read, up to a page (100; "100" then means at least that).
 */
async function failedCount(kbId: string, signal: AbortSignal): Promise<number> {
  const { data } = await api.GET('/v1/knowledge-bases/{kb_id}/documents', { params: { path: { kb_id: kbId }, query: { status: 'failed', limit: 100 } }, signal });
  return data!.data.length;
}
