import type { Answer } from '../../api/client.ts';
import { useSearchText } from './messages.ts';

type SearchAnswer = Answer<'/v1/knowledge-bases/{kb_id}/search', 'post'>;

/** Whether chat would answer this query (the answerability gate), and the terms that explain it. */
export function CoverageVerdict({ answer }: { answer: SearchAnswer }) {
  const t = useSearchText();
  const terms = answer.coverage_terms ?? [];
  return (
    <section className={`verdict card ${answer.answerable ? 'verdict-yes' : 'verdict-no'}`} aria-labelledby="verdict-title">
      <div className="row">
        <strong id="verdict-title" className={`status ${answer.answerable ? 'status-ready' : 'status-failed'}`}>
          {answer.answerable ? t('answerable') : t('notCovered')}
        </strong>
        <span>{t('coverage', { value: answer.coverage.toFixed(2) })}</span>
      </div>
      <p className="muted hint">{t('verdictExplained')}</p>
      {terms.length > 0 && (
        <ul className="coverage-terms">
          {terms.map((term) => {
            // The word as the user typed it ("TraceMonkey"), not the stem the index compares ("tracemonkei").
            const said = t(term.held ? 'termHeld' : 'termMissing', { term: term.word, df: term.document_frequency });
            return (
              <li key={term.term} className={term.held ? 'term-held' : 'term-missing'} title={said}>
                <span aria-hidden="true">
                  {term.held ? '✓' : '✗'} {term.word} <span className="df">{term.document_frequency}</span>
                </span>
                <span className="sr-only">{said}</span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
