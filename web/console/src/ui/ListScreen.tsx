import type { ReactNode } from 'react';
import { ErrorNote } from './ErrorNote.tsx';
import './list-screen.css';

/** What a list screen says, in the user's language (each capability's messages). */
export type ListScreenText = { title: string; intro: string; loading: string; emptyTitle: string; emptyText: string };

type Props<T> = {
  text: ListScreenText;
  /** The "New …" dialog, shown to a key that may write. */
  action?: ReactNode;
  items: T[] | undefined;
  error: unknown;
  /** The table of the items, drawn when there is at least one. */
  children(items: T[]): ReactNode;
};

/**
 * The frame every list screen shares (knowledge bases, agents, workflows): heading and intro, the
 * action, the API's error, a loading line announced to screen readers, and an empty state that
 * says what to do next; the table is the screen's own.
 */
export function ListScreen<T>({ text, action, items, error, children }: Props<T>) {
  return (
    <section className="stack">
      <div className="spread">
        <div>
          <h1>{text.title}</h1>
          <p className="muted">{text.intro}</p>
        </div>
        {action}
      </div>
      <ErrorNote error={error} />
      {!items && !error && <p aria-live="polite">{text.loading}</p>}
      {items?.length === 0 && (
        <div className="card empty-state">
          <h2>{text.emptyTitle}</h2>
          <p>{text.emptyText}</p>
        </div>
      )}
      {items && items.length > 0 && children(items)}
    </section>
  );
}
