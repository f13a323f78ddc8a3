import { Checkbox, Input, Label, NumberField, Switch, Text, TextArea, TextField } from 'react-aria-components';
import type { Agent } from './agent-draft.ts';
import type { FieldProps } from './AgentFields.tsx';
import { useAgentText } from './messages.ts';

/** How it retrieves (over its knowledge bases' settings); empty numbers leave them to the knowledge bases. */
export function RetrievalFields({ form, change, readOnly }: FieldProps) {
  const t = useAgentText();
  return (
    <>
      <div className="fields-2">
        <NumberField isReadOnly={readOnly} value={form.topK} onChange={(topK) => change({ topK })} minValue={1} maxValue={100} step={1}>
          <Label>{t('topK')}</Label>
          <Input />
          <Text slot="description">{t('kbDefault')}</Text>
        </NumberField>
        <NumberField isReadOnly={readOnly} value={form.scoreThreshold} onChange={(scoreThreshold) => change({ scoreThreshold })} minValue={0} maxValue={1} step={0.01}>
          <Label>{t('scoreThreshold')}</Label>
          <Input />
          <Text slot="description">{t('kbDefault')}</Text>
        </NumberField>
      </div>
      <Switch isSelected={form.rerank} isDisabled={readOnly} onChange={(rerank) => change({ rerank })}>
        <div className="indicator" />
        {t('rerank')}
      </Switch>
    </>
  );
}

/** Who may use the public page: access code, embedding origins, daily caps. */
export function PublicFields({ form, change, readOnly, agent }: FieldProps & { agent: Agent }) {
  const t = useAgentText();
  const codeSet = agent.public.access_code_set;
  return (
    <>
      {!readOnly && (
        <TextField type="password" value={form.newAccessCode} onChange={(newAccessCode) => change({ newAccessCode, removeAccessCode: false })} autoComplete="new-password">
          <Label>{t('accessCode')}</Label>
          <Input />
          <Text slot="description">{codeSet ? t('accessCodeSet') : t('accessCodeNone')}</Text>
        </TextField>
      )}
      {readOnly && <p className="muted">{codeSet ? t('accessCodeSet') : t('accessCodeNone')}</p>}
      {!readOnly && codeSet && (
        <Checkbox isSelected={form.removeAccessCode} isDisabled={!!form.newAccessCode} onChange={(removeAccessCode) => change({ removeAccessCode })}>
          <div className="box" />
          {t('removeAccessCode')}
        </Checkbox>
      )}
      <TextField isReadOnly={readOnly} value={form.allowedOrigins} onChange={(allowedOrigins) => change({ allowedOrigins })}>
        <Label>{t('allowedOrigins')}</Label>
        <TextArea rows={2} />
        <Text slot="description">{t('allowedOriginsHint')}</Text>
      </TextField>
      <div className="fields-2">
        <NumberField isReadOnly={readOnly} value={form.dailyCap} onChange={(dailyCap) => change({ dailyCap })} minValue={1} step={1}>
          <Label>{t('dailyCap')}</Label>
          <Input />
          <Text slot="description">{t('noCap')}</Text>
        </NumberField>
        <NumberField isReadOnly={readOnly} value={form.visitorDailyCap} onChange={(visitorDailyCap) => change({ visitorDailyCap })} minValue={1} step={1}>
          <Label>{t('visitorDailyCap')}</Label>
          <Input />
          <Text slot="description">{t('noCap')}</Text>
        </NumberField>
      </div>
    </>
  );
}
