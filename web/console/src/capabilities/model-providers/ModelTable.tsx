import { Cell, Column, Row, Table, TableBody, TableHeader } from 'react-aria-components';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { useModelsText } from './messages.ts';
import type { Model } from './types.ts';

/** GET /v1/models as a table: what a knowledge base, a chat or an agent may name. */
export function ModelTable({ models, error, agentNames }: { models: Model[] | undefined; error: unknown; agentNames?: ReadonlyMap<string, string> }) {
  const t = useModelsText();
  const owner = (model: Model) =>
    model.owned_by === 'kbqa' ? t('ownerKbqa') : model.owned_by === 'deployment' ? t('ownerDeployment') : model.type === 'agent' ? t('ownerAgent') : t('ownerProvider', { name: model.owned_by });
  return (
    <section className="stack" aria-labelledby="models-heading">
      <h2 id="models-heading">{t('modelsHeading')}</h2>
      <ErrorNote error={error} />
      {!models && !error && <p aria-live="polite">{t('loading')}</p>}
      {models?.length === 0 && <p className="muted">{t('noModels')}</p>}
      {models && models.length > 0 && (
        <Table aria-label={t('modelsLabel')} className="react-aria-Table models-table">
          <TableHeader>
            <Column isRowHeader>{t('model')}</Column>
            <Column>{t('type')}</Column>
            <Column>{t('owner')}</Column>
          </TableHeader>
          <TableBody items={models} dependencies={[agentNames]}>
            {(model) => (
              <Row id={model.id}>
                <Cell>
                  {agentNames?.has(model.id) && <span className="model-name">{agentNames.get(model.id)} </span>}
                  <span className="mono">{model.id}</span>
                </Cell>
                <Cell>
                  <span className={`status model-type-${model.type}`}>{t(`type_${model.type}`)}</span>
                </Cell>
                <Cell className="muted">{owner(model)}</Cell>
              </Row>
            )}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
