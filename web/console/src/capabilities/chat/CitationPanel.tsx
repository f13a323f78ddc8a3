import { Button } from 'react-aria-components';
import { CitationVersion } from './CitationVersion.tsx';
import { type ChatMessage, type CitationChoice, citedOnly, type ShownCitation } from './chat-model.ts';
import { useChatText } from './messages.ts';
import { PageZoom } from './PageZoom.tsx';
import { useStoredPassage } from './use-stored-passage.ts';

type Props = { message: ChatMessage | undefined; choice: CitationChoice | null; onChoose(choice: CitationChoice): void };

/** The chosen answer's citations (source, page, quote), and the chosen one in its paragraph and on its page. */
export function CitationPanel({ message, choice, onChoose }: Props) {
  const t = useChatText();
  const cited = message ? citedOnly(message) : [];
  const chosen = message && choice?.messageKey === message.key ? message.citations.find((c) => c.index === choice.index) : undefined;
  return (
    <aside className="citation-panel card stack" aria-labelledby="citations-title">
      <h2 id="citations-title">{t('citations')}</h2>
      {!message ? (
        <p className="muted">{t('pickCitation')}</p>
      ) : cited.length === 0 ? (
        <p className="muted">{t('noCitations')}</p>
      ) : (
        <ol className="citation-list">
          {cited.map((citation) => (
            <li key={citation.index} className={chosen?.index === citation.index ? 'chosen' : undefined}>
              <Button className="citation-entry" aria-current={chosen?.index === citation.index ? 'true' : undefined} onPress={() => onChoose({ messageKey: message.key, index: citation.index })}>
                <span className="citation-number">[{citation.index}]</span> <strong>{citation.source}</strong> <span className="muted">{t('page', { page: citation.page })}</span>
                {citation.document_version !== undefined && <span className="muted"> · {t('version', { version: citation.document_version })}</span>}
                {citation.quote && <span className="citation-quote">“{citation.quote.text}”</span>}
              </Button>
            </li>
          ))}
        </ol>
      )}
      {chosen && <ChosenCitation citation={chosen} />}
    </aside>
  );
}

const PAGED = /\.(pdf|png|jpe?g|tiff?)$/i;

function ChosenCitation({ citation: given }: { citation: ShownCitation }) {
  const t = useChatText();
  const stored = useStoredPassage(given);
  const citation = stored ? { ...given, ...stored } : given;
  // Only formats with page layout have page images: boxes say so, or for a stored answer, the file's type.
  const hasPage = citation.boxes ? citation.boxes.length > 0 : PAGED.test(citation.source);
  return (
    <section className="chosen-citation stack" aria-label={t('citation', { n: citation.index })}>
      {citation.knowledge_base_id && citation.document_version !== undefined && (
        <CitationVersion knowledgeBaseId={citation.knowledge_base_id} documentId={citation.document_id} version={citation.document_version} />
      )}
      {given.paragraph === undefined && <p className="muted hint">{t('quoteUnknown')}</p>}
      {citation.paragraph && <QuotedParagraph paragraph={citation.paragraph} quote={citation.quote ?? null} />}
      {hasPage && citation.knowledge_base_id && (
        <PageZoom knowledgeBaseId={citation.knowledge_base_id} documentId={citation.document_id} page={citation.page} source={citation.source} boxes={citation.boxes} />
      )}
    </section>
  );
}

/** The passage with the span the answer rests on in <mark> (the API guarantees paragraph.slice(start, end) === text). */
function QuotedParagraph({ paragraph, quote }: { paragraph: string; quote: { start: number; end: number } | null }) {
  if (!quote) return <blockquote className="citation-paragraph">{paragraph}</blockquote>;
  return (
    <blockquote className="citation-paragraph">
      {paragraph.slice(0, quote.start)}
      <mark>{paragraph.slice(quote.start, quote.end)}</mark>
      {paragraph.slice(quote.end)}
    </blockquote>
  );
}
