import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { dateOf, type DocumentVersion, listVersions } from '../documents/versions.ts';
import { useChatText } from './messages.ts';

type Props = { knowledgeBaseId: string; documentId: string; version: number };

/**
 * Which version of its document a citation rests on: "version 2 of 3, replaced on …" when it is
 * not the current one (an answer read later, or asked "as of" a past time), with a link to the
 * document whose Versions tab holds the current text.
 */
export function CitationVersion({ knowledgeBaseId, documentId, version }: Props) {
  const t = useChatText();
  const { i18n } = useTranslation();
  const [versions, setVersions] = useState<DocumentVersion[] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    // Unknown (deleted, or a key that may not read it): the citation says only its number.
    listVersions(knowledgeBaseId, documentId, controller.signal).then(setVersions, () => setVersions(null));
    return () => controller.abort();
  }, [knowledgeBaseId, documentId]);
  if (!versions) return null;
  const cited = versions.find((v) => v.version === version);
  const count = versions.length;
  if (cited?.current) return <p className="muted citation-version">{t('citedCurrent', { version, count })}</p>;
  const replaced = cited?.superseded_at ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(dateOf(cited.superseded_at)) : null;
  return (
    <p className="citation-version citation-version-old">
      {replaced ? t('citedOld', { version, count, date: replaced }) : t('citedOldUndated', { version, count })}{' '}
      <Link to={`/knowledge-bases/${encodeURIComponent(knowledgeBaseId)}/documents/${encodeURIComponent(documentId)}`}>{t('currentText')}</Link>
    </p>
  );
}
