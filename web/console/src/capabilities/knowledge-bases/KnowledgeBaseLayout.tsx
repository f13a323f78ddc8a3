import { NavLink, Outlet, useLocation, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import type { KnowledgeBaseContext } from './context.ts';
import './knowledge-bases.css';
import { useKnowledgeBaseText } from './messages.ts';
import { useResource } from './useResource.ts';

/** /knowledge-bases/:kbId: the base's name, its sections as tabs, the section; the base is loaded once here for all of them. */
export default function KnowledgeBaseLayout() {
  const t = useKnowledgeBaseText();
  const kbId = useParams().kbId!;
  const { pathname } = useLocation();
  const { data, setData, error } = useResource(async (signal) => (await api.GET('/v1/knowledge-bases/{kb_id}', { params: { path: { kb_id: kbId } }, signal })).data!, [kbId]);

  if (error) return <ErrorNote error={error} />;
  if (!data || data.id !== kbId) return <p aria-live="polite">{t('loading')}</p>;
  const context: KnowledgeBaseContext = { knowledgeBase: data, setKnowledgeBase: setData };
  return (
    <section className="stack">
      <div>
        <h1>{data.name}</h1>
        {data.description && <p className="muted">{data.description}</p>}
      </div>
      <nav aria-label={t('tabs')} className="tab-links">
        {/* A document's page belongs to the Documents tab too. */}
        <NavLink to="" end className={({ isActive }) => (isActive || pathname.includes('/documents/') ? 'active' : undefined)}>
          {t('tabDocuments')}
        </NavLink>
        <NavLink to="retrieval">{t('tabRetrieval')}</NavLink>
        <NavLink to="settings">{t('tabSettings')}</NavLink>
      </nav>
      <Outlet context={context} />
    </section>
  );
}
