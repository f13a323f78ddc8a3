import { Checkbox, Group, Input, Label, NumberField, Switch, Text, TextArea, TextField, Button } from 'react-aria-components';
import { LanguageSelect } from './LanguageSelect.tsx';
import { useKnowledgeBaseText } from './messages.ts';
import { ModelSelect } from './ModelSelect.tsx';
import type { SettingsDraft } from './settings-draft.ts';

type Props = { draft: SettingsDraft; change(patch: Partial<SettingsDraft>): void; readOnly: boolean };

/** The settings form's fields, grouped as the API groups them; read-only for a key without write. */
export function SettingsFields({ draft, change, readOnly }: Props) {
  const t = useKnowledgeBaseText();
  return (
    <>
      <fieldset>
        <legend>{t('general')}</legend>
        <TextField isRequired isReadOnly={readOnly} value={draft.name} onChange={(name) => change({ name })} maxLength={200}>
          <Label>{t('name')}</Label>
          <Input />
        </TextField>
        <TextField isReadOnly={readOnly} value={draft.description} onChange={(description) => change({ description })}>
          <Label>{t('description')}</Label>
          <TextArea rows={2} />
        </TextField>
        <LanguageSelect value={draft.language} onChange={(language) => change({ language })} isDisabled={readOnly} />
      </fieldset>
      <fieldset>
        <legend>{t('retrieval')}</legend>
        <div className="fields-2">
          <Number label={t('topK')} hint={t('topKHint')} value={draft.top_k} min={1} max={100} step={1} readOnly={readOnly} onChange={(top_k) => change({ top_k })} />
          <Number label={t('scoreThreshold')} hint={t('scoreThresholdHint')} value={draft.score_threshold} min={0} max={1} step={0.01} readOnly={readOnly} onChange={(score_threshold) => change({ score_threshold })} />
        </div>
        <Number label={t('minCoverage')} hint={t('minCoverageHint')} value={draft.min_coverage} min={0} max={1} step={0.05} readOnly={readOnly} onChange={(min_coverage) => change({ min_coverage })} />
        <div className="row">
          {(['vector', 'keyword', 'graph'] as const).map((way) => (
            <Checkbox key={way} isSelected={draft.recall[way]} isDisabled={readOnly} onChange={(on) => change({ recall: { ...draft.recall, [way]: on } })}>
              <div className="box" />
              {t(way === 'vector' ? 'recallVector' : way === 'keyword' ? 'recallKeyword' : 'recallGraph')}
            </Checkbox>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>{t('models')}</legend>
        <ModelSelect label={t('embeddingModel')} description={t('embeddingHint')} type="embedding" value={draft.embedding_model} isDisabled={readOnly} onChange={(id) => id && change({ embedding_model: id })} />
        <Switch isSelected={draft.rerank_enabled} isDisabled={readOnly} onChange={(rerank_enabled) => change({ rerank_enabled })}>
          <div className="indicator" />
          {t('rerankEnabled')}
        </Switch>
        <ModelSelect label={t('rerankModel')} type="rerank" value={draft.rerank_model} defaultLabel={t('rerankDefault')} isDisabled={readOnly || !draft.rerank_enabled} onChange={(rerank_model) => change({ rerank_model })} />
      </fieldset>
    </>
  );
}

type NumberProps = { label: string; hint: string; value: number; min: number; max: number; step: number; readOnly: boolean; onChange(value: number): void };

function Number({ label, hint, value, min, max, step, readOnly, onChange }: NumberProps) {
  return (
    <NumberField value={value} minValue={min} maxValue={max} step={step} isReadOnly={readOnly} onChange={(v) => !isNaN(v) && onChange(v)} formatOptions={{ maximumFractionDigits: 2 }}>
      <Label>{label}</Label>
      <Group>
        {!readOnly && <Button slot="decrement">−</Button>}
        <Input />
        {!readOnly && <Button slot="increment">+</Button>}
      </Group>
      <Text slot="description">{hint}</Text>
    </NumberField>
  );
}
