import { Link, useLocation, useParams } from 'react-router';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { useResource } from '../knowledge-bases/useResource.ts';
import { CanvasEditor } from './canvas/CanvasEditor.tsx';
import { useCanvasText } from './canvas/messages.ts';
import { loadWorkflow } from './canvas/workflow-api.ts';
import { NEW_WORKFLOW } from './new-workflow.ts';


/**
 * /workflows/:id: the workflow on the canvas (a lazy chunk of its own: React Flow and dagre load
 * only here). /workflows/new is a blank one, named by the list's "New workflow" dialog.
 */
export default function WorkflowCanvas() {
  const t = useCanvasText();
  const { id = NEW_WORKFLOW } = useParams();
  const location = useLocation();
  const isNew = id === NEW_WORKFLOW;
  const { data, error } = useResource(async (signal) => (isNew ? null : loadWorkflow(id, signal)), [id, isNew]);
  const initialName = typeof location.state === 'object' && location.state && 'name' in location.state ? String(location.state.name) : t('untitled');
  return (
    <div className="stack">
      <Link to="/workflows">{t('allWorkflows')}</Link>
      <h1 className="sr-only">{data?.name ?? initialName}</h1>
      <ErrorNote error={error} />
      {!isNew && data === undefined && !error && <p aria-live="polite">{t('loading')}</p>}
      {(isNew || data) && <CanvasEditor key={data?.id ?? NEW_WORKFLOW} stored={data ?? null} initialName={initialName} />}
    </div>
  );
}
