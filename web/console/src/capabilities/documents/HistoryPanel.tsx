import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerText } from '../../i18n/server-text.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { useDetailText } from './detail-messages.ts';
import { followDocumentHistory, type HistoryEvent } from './history.ts';

const KNOWN = ['DocumentUploaded', 'DocumentParsingStarted', 'DocumentParsed', 'DocumentIndexed', 'DocumentFailed', 'DocumentDeleted', 'DocumentMetadataUpdated'] as const;
type Known = (typeof KNOWN)[number];

/** The document's events as a timeline, oldest first, growing live while it is processed. */
export function HistoryPanel({ kbId, documentId }: { kbId: string; documentId: string }) {
  const t = useDetailText();
  const { i18n } = useTranslation();
  const [events, setEvents] = useState<HistoryEvent[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    setEvents([]);
    setLoading(true);
    // The replay comes in a burst: shown at once, then live additions one by one.
    const timer = setTimeout(() => setLoading(false), 300);
    followDocumentHistory(kbId, documentId, (event) => setEvents((current) => (current.some((e) => e.id === event.id) ? current : [...current, event])), controller.signal).catch(
      (failure: unknown) => controller.signal.aborted || setError(failure),
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [kbId, documentId]);

  const times = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });
  return (
    <div className="stack">
      <p className="muted">{t('historyIntro')}</p>
      <ErrorNote error={error} />
      {events.length === 0 && <p aria-live="polite">{loading ? t('loading') : t('noEvents')}</p>}
      {events.length > 0 && (
        <ol className="timeline">
          {events.map((event) => {
            const when = timeOf(event.data);
            return (
              <li key={event.id} className={event.type === 'DocumentFailed' ? 'event-failed' : undefined}>
                <strong>{(KNOWN as readonly string[]).includes(event.type) ? t(`ev_${event.type as Known}`) : event.type}</strong>
                {when && (
                  <time className="when" dateTime={when}>
                    {times.format(new Date(when))}
                  </time>
                )}
                <Details event={event} />
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

/** When it happened: each event type names its own time field (uploaded_at, parsed_at, …). */
function timeOf(data: Record<string, unknown>): string | undefined {
  const key = Object.keys(data).find((name) => name.endsWith('_at') && typeof data[name] === 'string');
  return key ? (data[key] as string) : undefined;
}

function Details({ event }: { event: HistoryEvent }) {
  const t = useDetailText();
  const server = useServerText();
  const d = event.data as Record<string, string | number | number[] | string[] | undefined>;
  const lines: string[] = [];
  if (event.type === 'DocumentUploaded') lines.push(t('detailUploaded', { media_type: d.media_type, size: bytes(Number(d.size_bytes)) }));
  if (event.type === 'DocumentParsingStarted') lines.push(t('detailAttempt', { attempt: d.attempt }));
  if (event.type === 'DocumentParsed') {
    lines.push(t('detailParsed', { pages: d.page_count, chunks: d.chunk_count, ms: d.parse_ms }));
    if (Array.isArray(d.ocr_pages) && d.ocr_pages.length > 0) lines.push(t('detailOcr', { pages: d.ocr_pages.join(', ') }));
    if (Array.isArray(d.warnings)) lines.push(...(d.warnings as string[]));
  }
  if (event.type === 'DocumentIndexed') lines.push(t('detailIndexed', { chunks: d.chunk_count, entities: d.entity_count, model: d.embedding_model, ms: d.index_ms }));
  if (event.type === 'DocumentFailed') {
    const said = server.documentFailure({ code: String(d.code), message: String(d.message ?? ''), detail: typeof d.detail === 'string' ? d.detail : undefined });
    lines.push(t('detailFailed', { stage: d.stage, code: d.code, message: said.text }));
    if (said.detail) lines.push(said.detail);
  }
  return (
    <>
      {lines.map((line, i) => (
        <p key={i} className="details">
          {line}
        </p>
      ))}
    </>
  );
}

export function bytes(size: number): string {
  if (!Number.isFinite(size)) return '';
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
