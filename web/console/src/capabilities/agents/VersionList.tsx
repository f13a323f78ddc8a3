import { Cell, Column, Row, Table, TableBody, TableHeader } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { useResource } from '../knowledge-bases/useResource.ts';
import { useAgentText } from './messages.ts';

/** The published versions, newest first: when, under which name and model. `round` reloads them after a publish. */
export function VersionList({ agentId, round }: { agentId: string; round: number }) {
  const t = useAgentText();
  const { i18n } = useTranslation();
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const { data, error } = useResource(
    async (signal) => (await api.GET('/v1/agents/{agent_id}/versions', { params: { path: { agent_id: agentId }, query: { limit: 20, order: 'desc' } }, signal })).data!.data,
    [agentId, round],
  );
  return (
    <section className="card stack" aria-labelledby="agent-versions-title">
      <h2 id="agent-versions-title">{t('versions')}</h2>
      <ErrorNote error={error} />
      {data?.length === 0 && <p className="muted">{t('noVersions')}</p>}
      {data && data.length > 0 && (
        <Table aria-label={t('versionsLabel')} className="react-aria-Table versions-table">
          <TableHeader>
            <Column isRowHeader>{t('version')}</Column>
            <Column>{t('publishedAt')}</Column>
            <Column>{t('model')}</Column>
          </TableHeader>
          <TableBody items={data.map((v) => ({ ...v, id: v.version }))}>
            {(v) => (
              <Row id={v.id}>
                <Cell>v{v.version}</Cell>
                <Cell>{dates.format(new Date(v.published_at))}</Cell>
                <Cell className="mono">{v.model}</Cell>
              </Row>
            )}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
