import { Cell, Column, Row, Table, TableBody, TableHeader } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { useCan } from '../../session/session.tsx';
import { ListScreen } from '../../ui/ListScreen.tsx';
import { useResource } from '../knowledge-bases/useResource.ts';
import { useWorkflowText } from './messages.ts';
import { NewWorkflowDialog } from './NewWorkflowDialog.tsx';
import './workflows.css';

/** /workflows: the workspace's workflows, each opening on the canvas, and "New workflow". */
export default function WorkflowList() {
  const t = useWorkflowText();
  const { i18n } = useTranslation();
  const canWrite = useCan('write');
  const { data, error } = useResource(async (signal) => (await api.GET('/v1/workflows', { params: { query: { limit: 100 } }, signal })).data!.data, []);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <ListScreen text={{ title: t('title'), intro: t('intro'), loading: t('loading'), emptyTitle: t('emptyTitle'), emptyText: t('emptyText') }} action={canWrite && <NewWorkflowDialog />} items={data} error={error}>
      {(items) => (
        <Table aria-label={t('listLabel')} className="react-aria-Table workflow-table">
          <TableHeader>
            <Column isRowHeader>{t('name')}</Column>
            <Column>{t('nodes')}</Column>
            <Column>{t('version')}</Column>
            <Column>{t('updated')}</Column>
          </TableHeader>
          <TableBody items={items}>
            {(workflow) => (
              <Row id={workflow.id}>
                <Cell>
                  <Link className="workflow-name" to={`/workflows/${encodeURIComponent(workflow.id)}`}>
                    {workflow.name}
                  </Link>
                  {workflow.description && <div className="muted">{workflow.description}</div>}
                  <div className="muted mono">{workflow.id}</div>
                </Cell>
                <Cell>
                  <div>{workflow.graph.nodes.length}</div>
                  <div className="muted workflow-steps">{workflow.graph.nodes.map((node) => node.type).join(' → ')}</div>
                </Cell>
                <Cell>{workflow.version}</Cell>
                <Cell>{dates.format(new Date(workflow.updated_at))}</Cell>
              </Row>
            )}
          </TableBody>
        </Table>
      )}
    </ListScreen>
  );
}
