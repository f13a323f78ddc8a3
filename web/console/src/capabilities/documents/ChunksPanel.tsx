import { useEffect, useState } from 'react';
import { Button, ListBox, ListBoxItem } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { type Answer, api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { PageImage } from '../../ui/PageImage.tsx';
import { useDetailText } from './detail-messages.ts';
import type { Document } from './rows.ts';

type Chunk = Answer<'/v1/knowledge-bases/{kb_id}/documents/{document_id}/chunks', 'get'>['data'][number];

/** Only PDFs and scans have pages the API can draw (others answer 415 page_image_unavailable). */
const hasPageImages = (doc: Document) => doc.media_type === 'application/pdf' || doc.media_type.startsWith('image/');

/** The document's chunks in order; the selected one shown on its page with its lines boxed. */
export function ChunksPanel({ doc }: { doc: Document }) {
  const t = useDetailText();
  const [chunks, setChunks] = useState<Chunk[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  // `?chunk=` (a workflow run's citation links here): that chunk selected first, when it is among those loaded.
  const [params] = useSearchParams();
  const wanted = params.get('chunk');
  const [selected, setSelected] = useState<string | null>(null);

  async function load(after: number | undefined, signal?: AbortSignal) {
    setLoading(true);
    try {
      const { data } = await api.GET('/v1/knowledge-bases/{kb_id}/documents/{document_id}/chunks', {
        params: { path: { kb_id: doc.knowledge_base_id, document_id: doc.id }, query: { limit: 100, ...(after !== undefined && { after }) } },
        signal,
      });
      setChunks((current) => (after === undefined ? data!.data : [...current, ...data!.data]));
      setHasMore(data!.has_more);
      setSelected((current) => current ?? data!.data.find((c) => c.id === wanted)?.id ?? data!.data[0]?.id ?? null);
    } catch (failure) {
      if (!signal?.aborted) setError(failure);
    } finally {
      if (!signal?.aborted) setLoading(false);
    }
  }

  // Read again when the document becomes ready: chunks appear as it is indexed.
  useEffect(() => {
    const controller = new AbortController();
    void load(undefined, controller.signal);
    return () => controller.abort();
  }, [doc.id, doc.status]);

  const chunk = chunks.find((c) => c.id === selected);
  return (
    <div className="grid-2 chunks-panel">
      <div className="stack">
        <ErrorNote error={error} />
        {!loading && chunks.length === 0 && <p className="muted">{t('noChunks')}</p>}
        {chunks.length > 0 && (
          <ListBox
            aria-label={t('chunkList', { name: doc.name })}
            className="react-aria-ListBox chunk-list"
            items={chunks}
            selectionMode="single"
            disallowEmptySelection
            selectedKeys={selected ? [selected] : []}
            onSelectionChange={(keys) => keys !== 'all' && setSelected(String([...keys][0] ?? selected))}
          >
            {(c) => (
              <ListBoxItem id={c.id} textValue={c.paragraph.slice(0, 80)}>
                <div className="chunk-meta">
                  <span>#{c.index + 1}</span>
                  <span>{c.heading_path.length > 0 ? c.heading_path.join(' › ') : t('noHeading')}</span>
                  <span>{t('page', { page: c.page })}</span>
                  <span>{t('tokens', { count: c.token_count })}</span>
                </div>
                <p className="chunk-text">{c.paragraph}</p>
              </ListBoxItem>
            )}
          </ListBox>
        )}
        {hasMore && (
          <Button isPending={loading} onPress={() => void load(chunks.at(-1)?.index)}>
            {t('moreChunks')}
          </Button>
        )}
      </div>
      <div className="chunk-preview">
        {!chunk && chunks.length > 0 && <p className="muted">{t('selectChunk')}</p>}
        {chunk && hasPageImages(doc) && (
          <PageImage knowledgeBaseId={doc.knowledge_base_id} documentId={doc.id} page={chunk.page} fileName={doc.name} boxes={chunk.boxes} alt={t('pageAlt', { page: chunk.page, file: doc.name })} />
        )}
        {chunk && !hasPageImages(doc) && <p className="muted">{t('noPageImage')}</p>}
      </div>
    </div>
  );
}
