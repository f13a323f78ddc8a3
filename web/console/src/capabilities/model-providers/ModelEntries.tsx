import { Button, Input, ListBox, ListBoxItem, NumberField, Popover, Select, SelectValue, TextField } from 'react-aria-components';
import { DiscoverModels } from './DiscoverModels.tsx';
import { useModelsText } from './messages.ts';
import { PROVIDER_MODEL_TYPES, type ProviderModel } from './types.ts';

type Props = {
  /** A saved provider's id: its own /models can then be asked ("Discover models"). */
  providerId?: string;
  entries: ProviderModel[];
  onChange(entries: ProviderModel[]): void;
};

/** The provider's `models` list: each model's id, type and (an embedding model's) dimensions. */
export function ModelEntries({ providerId, entries, onChange }: Props) {
  const t = useModelsText();
  const change = (index: number, entry: ProviderModel) => onChange(entries.map((e, i) => (i === index ? entry : e)));
  return (
    <div className="stack model-entries">
      {entries.length === 0 && <p className="muted">{t('noProviderModels')}</p>}
      {entries.length > 0 && (
        // Each field has its own accessible name ("Model 2 type"); these headings are for the eye only.
        <div className="model-entry model-entry-head" aria-hidden="true">
          <span>{t('modelIdHead')}</span>
          <span>{t('type')}</span>
          <span>{t('dimensions')}</span>
        </div>
      )}
      {entries.map((entry, index) => {
        const n = index + 1;
        return (
          <div className="model-entry" key={index}>
            <TextField aria-label={t('modelId', { n })} isRequired value={entry.id} onChange={(id) => change(index, { ...entry, id })}>
              <Input placeholder="gpt-4o-mini" spellCheck={false} />
            </TextField>
            <Select
              aria-label={t('modelType', { n })}
              selectedKey={entry.type}
              onSelectionChange={(key) => key !== null && change(index, withType(entry, key as ProviderModel['type']))}
            >
              <Button>
                <SelectValue />
                <span aria-hidden="true">▾</span>
              </Button>
              <Popover>
                <ListBox items={PROVIDER_MODEL_TYPES.map((type) => ({ id: type }))}>{(item) => <ListBoxItem id={item.id}>{t(`type_${item.id}`)}</ListBoxItem>}</ListBox>
              </Popover>
            </Select>
            {entry.type === 'embedding' ? (
              <NumberField
                aria-label={t('modelDimensions', { n })}
                isRequired
                minValue={1}
                step={1}
                value={entry.dimensions ?? NaN}
                onChange={(dimensions) => change(index, { ...entry, dimensions: Number.isNaN(dimensions) ? undefined : dimensions })}
              >
                <Input placeholder={t('dimensions')} />
              </NumberField>
            ) : (
              <span />
            )}
            <Button className="react-aria-Button quiet" aria-label={t('removeModel', { n })} onPress={() => onChange(entries.filter((_, i) => i !== index))}>
              ✕
            </Button>
          </div>
        );
      })}
      <div className="row">
        <Button onPress={() => onChange([...entries, { id: '', type: 'chat' }])}>{t('addModel')}</Button>
        {providerId && <DiscoverModels providerId={providerId} entries={entries} onChange={onChange} />}
      </div>
    </div>
  );
}

/** Only an embedding model has dimensions: the API refuses them on the others. */
function withType(entry: ProviderModel, type: ProviderModel['type']): ProviderModel {
  return type === 'embedding' ? { ...entry, type } : { id: entry.id, type };
}
