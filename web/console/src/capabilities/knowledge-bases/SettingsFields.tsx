import { useEffect, useState } from 'react';
import { Checkbox, FieldError, Input, Label, Switch, Text, TextArea, TextField } from 'react-aria-components';
import { LanguageSelect } from './LanguageSelect.tsx';
import { useKnowledgeBaseText } from './messages.ts';
import { ModelSelect } from './ModelSelect.tsx';
import type { SettingsDraft } from './settings-draft.ts';

/** `errors`: the API's message for a field it refused (a 400's `param`), shown at that field. */
type Props = { draft: SettingsDraft; change(patch: Partial<SettingsDraft>): void; readOnly: boolean; errors?: Partial<Record<keyof SettingsDraft, string>> };

/** The settings form's fields, grouped as the API groups them; read-only for a key without write. */
export function SettingsFields({ draft, change, readOnly, errors = {} }: Props) {
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
          <NumberInput label={t('topK')} hint={t('topKHint')} value={draft.top_k} min={1} max={100} step={1} readOnly={readOnly} onChange={(top_k) => change({ top_k })} />
          <NumberInput label={t('scoreThreshold')} hint={t('scoreThresholdHint')} value={draft.score_threshold} min={0} max={1} step={0.01} readOnly={readOnly} onChange={(score_threshold) => change({ score_threshold })} />
        </div>
        <NumberInput label={t('minCoverage')} hint={t('minCoverageHint')} value={draft.min_coverage} min={0} max={1} step={0.05} readOnly={readOnly} onChange={(min_coverage) => change({ min_coverage })} />
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
      <fieldset>
        <legend>{t('chunking')}</legend>
        <p className="muted hint">{t('chunkingHint')}</p>
        <div className="fields-2">
          <NumberInput label={t('maxTokens')} hint={t('maxTokensHint')} value={draft.max_tokens} min={32} max={8192} step={1} readOnly={readOnly} error={errors.max_tokens} onChange={(max_tokens) => change({ max_tokens })} />
          <NumberInput label={t('overlapTokens')} hint={t('overlapTokensHint')} value={draft.overlap_tokens} min={0} max={4096} step={1} readOnly={readOnly} error={errors.overlap_tokens} onChange={(overlap_tokens) => change({ overlap_tokens })} />
        </div>
      </fieldset>
    </>
  );
}

type NumberProps = { label: string; hint: string; value: number; min: number; max: number; step: number; readOnly: boolean; error?: string | undefined; onChange(value: number): void };

/**
 * A number as a text field, not React Aria's NumberField: its spin button clears the live announcer
 * with innerHTML, which the console's Trusted Types policy refuses (the screen would crash on blur).
 */
function NumberInput({ label, hint, value, min, max, step, readOnly, error, onChange }: NumberProps) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const parsed = Number(text.replace(',', '.'));
  const invalid = text.trim() === '' || !Number.isFinite(parsed) || parsed < min || parsed > max || (step === 1 && !Number.isInteger(parsed));
  return (
    <TextField
      value={text}
      isReadOnly={readOnly}
      inputMode={step === 1 ? 'numeric' : 'decimal'}
      isInvalid={invalid || error !== undefined}
      onChange={(next) => {
        setText(next);
        const n = Number(next.replace(',', '.'));
        if (next.trim() !== '' && Number.isFinite(n) && n >= min && n <= max) onChange(n);
      }}
    >
      <Label>{label}</Label>
      <Input />
      <Text slot="description">{hint}</Text>
      {(invalid || error !== undefined) && <FieldError>{invalid ? `${min}–${max}` : error}</FieldError>}
    </TextField>
  );
}
