import { Button } from 'react-aria-components';
import { ErrorNote } from '../../../ui/ErrorNote.tsx';
import { useCanvasText } from './messages.ts';
import type { useSave } from './use-save.ts';
import type { GraphFault } from './workflow-api.ts';

type Props = { saving: ReturnType<typeof useSave>; onOverwrite(): void; onSelectNode(id: string): void };

/** What the last save said: saved, someone else's version in between (and what to do about it), or the graph's faults, each leading to its node. */
export function SaveNotes({ saving, onOverwrite, onSelectNode }: Props) {
  const t = useCanvasText();
  return (
    <div className="save-notes" aria-live="polite">
      {saving.outcome === 'saved' && <p className="ok-note">{t('saved', { version: saving.saved?.version ?? '' })}</p>}
      {saving.outcome === 'published' && <p className="ok-note">{t('publishedNote', { version: saving.saved?.published_version ?? '' })}</p>}
      {saving.theirs && (
        <div role="alert" className="conflict-note stack">
          <p>{t('conflict', { version: saving.theirs.version })}</p>
          <div className="row">
            <Button onPress={saving.reloadTheirs}>{t('reloadTheirs')}</Button>
            <Button className="react-aria-Button danger" onPress={onOverwrite}>
              {t('overwrite')}
            </Button>
          </div>
        </div>
      )}
      {saving.faults.length > 0 && <FaultList faults={saving.faults} onSelectNode={onSelectNode} />}
      <ErrorNote error={saving.error} />
    </div>
  );
}

function FaultList({ faults, onSelectNode }: { faults: GraphFault[]; onSelectNode(id: string): void }) {
  const t = useCanvasText();
  return (
    <section role="alert" className="fault-list" aria-labelledby="fault-list-title">
      <h2 id="fault-list-title">{t('faultsTitle', { count: faults.length })}</h2>
      <ul>
        {faults.map((fault, i) => (
          <li key={i}>
            {fault.node_id ? (
              <Button className="react-aria-Button quiet" onPress={() => onSelectNode(fault.node_id!)}>
                <span className="mono">{fault.node_id}</span>: {fault.message}
              </Button>
            ) : (
              fault.message
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
