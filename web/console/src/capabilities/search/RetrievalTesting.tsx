import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { useParams } from 'react-router';
import { type Answer, api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { PageImage } from '../../ui/PageImage.tsx';
import { CoverageVerdict } from './CoverageVerdict.tsx';
import { type Hit, HitCard } from './HitCard.tsx';
import { useSearchText } from './messages.ts';
import { RetrievalForm, type SearchBody } from './RetrievalForm.tsx';
import './retrieval.css';

type SearchAnswer = Answer<'/v1/knowledge-bases/{kb_id}/search', 'post'>;
type Settings = Answer<'/v1/knowledge-bases/{kb_id}', 'get'>['settings'];

/**
 * Hit testing (POST /v1/knowledge-bases/{kb}/search with explain): the passages a query retrieves,
 * each recall's score, and the answerability verdict chat would reach. A read key may search, so
 * nothing here is hidden from one.
 */
export default function RetrievalTesting() {
  const { kbId = '' } = useParams();
  const t = useSearchText();
  const [settings, setSettings] = useState<Settings>();
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const [opened, setOpened] = useState<Hit | null>(null);

  useEffect(() => {
    api.GET('/v1/knowledge-bases/{kb_id}', { params: { path: { kb_id: kbId } } }).then(({ data }) => setSettings(data?.settings), setError);
  }, [kbId]);

  async function search(body: SearchBody) {
    setPending(true);
    setError(null);
    setOpened(null);
    try {
      const { data } = await api.POST('/v1/knowledge-bases/{kb_id}/search', { params: { path: { kb_id: kbId } }, body });
      setAnswer(data ?? null);
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  }

  // Stems mark the words they begin ("blade" in "blades"); the typed word marks the rest ("tracemonkei" is not how "TraceMonkey" starts).
  const terms = answer?.coverage_terms?.filter((term) => term.held).flatMap((term) => [term.term, term.word.toLowerCase()]) ?? [];
  return (
    <div className={`retrieval${opened ? ' with-page' : ''}`}>
      <div className="retrieval-main stack">
        <h2>{t('title')}</h2>
        <p className="muted">{t('intro')}</p>
        <RetrievalForm pending={pending} defaults={settings} onSearch={(body) => void search(body)} />
        <ErrorNote error={error} />
        {answer && (
          <section className="stack" aria-label={t('hitsLabel')} aria-live="polite">
            <CoverageVerdict answer={answer} />
            <p className="muted">{t('results', { count: answer.data.length, mode: t(`mode_${answer.mode}`), rerank: answer.rerank ? t('on') : t('off') })}</p>
            {answer.data.length === 0 ? (
              <p>{t('noHits')}</p>
            ) : (
              <ol className="hits">
                {answer.data.map((hit, i) => (
                  <HitCard key={hit.chunk_id} hit={hit} rank={i + 1} terms={terms} selected={opened?.chunk_id === hit.chunk_id} onOpen={setOpened} />
                ))}
              </ol>
            )}
          </section>
        )}
      </div>
      {opened && (
        <aside className="retrieval-page card stack" aria-label={t('pageAlt', { page: opened.page, source: opened.source })}>
          <div className="spread">
            <strong>
              {opened.source} · {t('page', { page: opened.page })}
            </strong>
            <Button className="react-aria-Button quiet" onPress={() => setOpened(null)}>
              {t('closePage')}
            </Button>
          </div>
          <PageImage
            knowledgeBaseId={opened.knowledge_base_id}
            documentId={opened.document_id}
            page={opened.page}
            fileName={opened.source}
            boxes={opened.boxes}
            alt={t('pageAlt', { page: opened.page, source: opened.source })}
          />
        </aside>
      )}
    </div>
  );
}
