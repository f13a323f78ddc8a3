import { Cell, Column, Row, Table, TableBody, TableHeader } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { useCan } from '../../session/session.tsx';
import { ListScreen } from '../../ui/ListScreen.tsx';
import { useResource } from '../knowledge-bases/useResource.ts';
import './agents.css';
import { useAgentText } from './messages.ts';
import { NewAgentDialog } from './NewAgentDialog.tsx';
import { PublicLink } from './PublicLink.tsx';

/** /agents: the workspace's agents, their state and public link, and (with write) a new one. */
export default function AgentList() {
  const t = useAgentText();
  const canWrite = useCan('write');
  const { i18n } = useTranslation();
  const { data, error } = useResource(async (signal) => (await api.GET('/v1/agents', { params: { query: { limit: 100, order: 'desc' } }, signal })).data!.data, []);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <ListScreen text={{ title: t('title'), intro: t('intro'), loading: t('loading'), emptyTitle: t('emptyTitle'), emptyText: canWrite ? t('emptyWrite') : t('emptyRead') }} action={canWrite && <NewAgentDialog />} items={data} error={error}>
      {(items) => (
        <Table aria-label={t('listLabel')} className="react-aria-Table agents-table">
          <TableHeader>
            <Column isRowHeader>{t('name')}</Column>
            <Column>{t('model')}</Column>
            <Column>{t('status')}</Column>
            <Column>{t('publicLink')}</Column>
            <Column>{t('updated')}</Column>
          </TableHeader>
          <TableBody items={items}>
            {(agent) => (
              <Row id={agent.id}>
                <Cell>
                  <Link to={`/agents/${encodeURIComponent(agent.id)}`}>{agent.name}</Link>
                </Cell>
                <Cell className="mono">{agent.model}</Cell>
                <Cell>
                  <span className={`status status-${agent.status}`}>{t(agent.status)}</span>
                  {agent.published_version !== null && <span className="muted"> v{agent.published_version}</span>}
                </Cell>
                <Cell>{agent.public_url ? <PublicLink path={agent.public_url} /> : <span className="muted">{t('notPublished')}</span>}</Cell>
                <Cell>{dates.format(new Date(agent.updated_at))}</Cell>
              </Row>
            )}
          </TableBody>
        </Table>
      )}
    </ListScreen>
  );
}
