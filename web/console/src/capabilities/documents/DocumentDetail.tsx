import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { useKnowledgeBase } from '../knowledge-bases/context.ts';
import { ChunksPanel } from './ChunksPanel.tsx';
import { useDetailText } from './detail-messages.ts';
import './documents.css';
import { bytes, HistoryPanel } from './HistoryPanel.tsx';
import { RowStatus } from './DocumentRowCells.tsx';
import { rowOfDocument, type Document } from './rows.ts';
import { useDocument } from './useDocument.ts';
import { useVersionText } from './version-messages.ts';
import { VersionsPanel } from './VersionsPanel.tsx';

/** /knowledge-bases/:kbId/documents/:documentId: what the document is, its chunks on their pages, its history. */
export default function DocumentDetail() {
  const t = useDetailText();
  const tv = useVersionText();
  const { knowledgeBase } = useKnowledgeBase();
  const documentId = useParams().documentId!;
  const { doc, error } = useDocument(knowledgeBase.id, documentId);

  return (
    <div className="stack">
      <p>
        <Link to={`/knowledge-bases/${encodeURIComponent(knowledgeBase.id)}`}>← {t('back')}</Link>
      </p>
      <ErrorNote error={error} />
      {!doc && !error && <p aria-live="polite">{t('loading')}</p>}
      {doc && (
        <>
          <h2>{doc.name}</h2>
          <Metadata doc={doc} />
          <Tabs>
            <TabList aria-label={t('tabs')}>
              <Tab id="chunks">{t('tabChunks')}</Tab>
              <Tab id="versions">{tv('tabVersions')}</Tab>
              <Tab id="history">{t('tabHistory')}</Tab>
            </TabList>
            <TabPanel id="chunks">
              <ChunksPanel doc={doc} />
            </TabPanel>
            <TabPanel id="versions">
              <VersionsPanel kbId={knowledgeBase.id} documentId={doc.id} />
            </TabPanel>
            <TabPanel id="history">
              <HistoryPanel kbId={knowledgeBase.id} documentId={doc.id} />
            </TabPanel>
          </Tabs>
        </>
      )}
    </div>
  );
}

function Metadata({ doc }: { doc: Document }) {
  const t = useDetailText();
  const { i18n } = useTranslation();
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);
  return (
    <section className="card" aria-label={t('details')}>
      <dl className="doc-meta">
        <dt>{t('status')}</dt>
        <dd>
          <RowStatus row={rowOfDocument(doc)} />
        </dd>
        <dt>{t('mediaType')}</dt>
        <dd>{doc.media_type}</dd>
        <dt>{t('size')}</dt>
        <dd>{bytes(doc.size_bytes)}</dd>
        <dt>{t('pages')}</dt>
        <dd>{doc.page_count === null ? '–' : doc.page_estimated ? t('pagesEstimated', { count: doc.page_count }) : doc.page_count}</dd>
        <dt>{t('chunks')}</dt>
        <dd>{doc.chunk_count ?? '–'}</dd>
        {doc.ocr_pages.length > 0 && (
          <>
            <dt>{t('ocrPages')}</dt>
            <dd>{doc.ocr_pages.join(', ')}</dd>
          </>
        )}
        <dt>{t('uploaded')}</dt>
        <dd>{dates.format(new Date(doc.created_at))}</dd>
        <dt>{t('parseTime')}</dt>
        <dd>{ms(doc.timings.parse_ms)}</dd>
        <dt>{t('indexTime')}</dt>
        <dd>{ms(doc.timings.index_ms)}</dd>
        {doc.parent_document_id && (
          <>
            <dt>{t('attachedTo')}</dt>
            <dd>
              <Link to={`/knowledge-bases/${encodeURIComponent(doc.knowledge_base_id)}/documents/${encodeURIComponent(doc.parent_document_id)}`}>
                {doc.parent_document_id}
              </Link>
            </dd>
          </>
        )}
        {Object.keys(doc.metadata).length > 0 && (
          <>
            <dt>{t('metadata')}</dt>
            <dd>{Object.entries(doc.metadata).map(([key, value]) => `${key}: ${String(value)}`).join(' · ')}</dd>
          </>
        )}
        {doc.warnings.length > 0 && (
          <>
            <dt>{t('warnings')}</dt>
            <dd>{doc.warnings.join('; ')}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
