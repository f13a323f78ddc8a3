import { Button } from 'react-aria-components';
import type { Answer } from '../../api/client.ts';
import { highlightTerms } from './highlight-terms.tsx';
import { useSearchText } from './messages.ts';

export type Hit = Answer<'/v1/knowledge-bases/{kb_id}/search', 'post'>['data'][number];

const STAGES = ['vector', 'keyword', 'graph', 'fused', 'rerank'] as const;

type Props = { hit: Hit; rank: number; terms: readonly string[]; selected: boolean; onOpen(hit: Hit): void };

/** One retrieved passage: where it is, its final score and each stage's, its text with the query's terms marked. */
export function HitCard({ hit, rank, terms, selected, onOpen }: Props) {
  const t = useSearchText();
  // Only formats with page layout (PDF, scans) give boxes, and only those have page images.
  const hasPage = (hit.boxes?.length ?? 0) > 0;
  return (
    <li className={`hit card${selected ? ' hit-selected' : ''}`}>
      <div className="spread">
        <span className="hit-where">
          <span className="hit-rank">#{rank}</span> <strong>{hit.source}</strong> <span className="muted">{t('page', { page: hit.page })}</span>
          {hit.heading_path && hit.heading_path.length > 0 && <span className="muted"> · {hit.heading_path.join(' › ')}</span>}
        </span>
        {hasPage && (
          <Button className="react-aria-Button quiet" onPress={() => onOpen(hit)}>
            {t('openPage', { page: hit.page, source: hit.source })}
          </Button>
        )}
      </div>
      <dl className="hit-scores">
        <div className="final-score">
          <dt>{t('score')}</dt>
          <dd>{hit.score.toFixed(3)}</dd>
        </div>
        {hit.scores &&
          STAGES.map((stage) => (
            <div key={stage} className={hit.scores![stage] === null ? 'absent' : undefined}>
              <dt>{t(`score_${stage}`)}</dt>
              <dd>{hit.scores![stage] === null ? t('notRecalled') : hit.scores![stage]!.toFixed(3)}</dd>
            </div>
          ))}
      </dl>
      {hit.paragraph && <p className="hit-text">{highlightTerms(hit.paragraph, terms)}</p>}
    </li>
  );
}
