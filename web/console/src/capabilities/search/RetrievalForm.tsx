import { type FormEvent, useState } from 'react';
import { Button, Form, Label, NumberField, Group, Input, TextArea, TextField, Text } from 'react-aria-components';
import type { RequestBody } from '../../api/client.ts';
import { SelectField } from '../../ui/SelectField.tsx';
import { useSearchText } from './messages.ts';

export type SearchBody = RequestBody<'/v1/knowledge-bases/{kb_id}/search', 'post'>;
type Mode = NonNullable<SearchBody['mode']>;
type Choice<T> = 'default' | T;

const MODES: Mode[] = ['hybrid', 'vector', 'keyword', 'graph'];

/** The query and the knobs search takes; anything left at "default" follows the knowledge base's settings. */
type Props = {
  pending: boolean;
  /** The knowledge base's own top_k and threshold, shown while the fields are empty. */
  defaults?: { top_k: number; score_threshold: number };
  onSearch(body: SearchBody): void;
};

export function RetrievalForm({ pending, defaults, onSearch }: Props) {
  const t = useSearchText();
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<Choice<Mode>>('default');
  const [rerank, setRerank] = useState<Choice<'on' | 'off'>>('default');
  const [topK, setTopK] = useState(NaN);
  const [threshold, setThreshold] = useState(NaN);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSearch({
      query: query.trim(),
      explain: true,
      ...(mode !== 'default' && { mode }),
      ...(rerank !== 'default' && { rerank: rerank === 'on' }),
      ...(!Number.isNaN(topK) && { top_k: topK }),
      ...(!Number.isNaN(threshold) && { score_threshold: threshold }),
    });
  }

  return (
    <Form onSubmit={submit} className="retrieval-form card stack">
      <TextField isRequired value={query} onChange={setQuery} maxLength={8000}>
        <Label>{t('query')}</Label>
        <TextArea rows={3} />
        <Text slot="description">{t('queryHint')}</Text>
      </TextField>
      <div className="retrieval-knobs">
        <SelectField<Choice<Mode>>
          label={t('mode')}
          options={[{ id: 'default', label: t('modeDefault') }, ...MODES.map((m) => ({ id: m, label: t(`mode_${m}`) }))]}
          selectedKey={mode}
          onChange={setMode}
        />
        <SelectField<Choice<'on' | 'off'>>
          label={t('rerank')}
          options={[
            { id: 'default', label: t('rerankDefault') },
            { id: 'on', label: t('rerankOn') },
            { id: 'off', label: t('rerankOff') },
          ]}
          selectedKey={rerank}
          onChange={setRerank}
        />
        <NumberField value={topK} onChange={setTopK} minValue={1} maxValue={100} step={1}>
          <Label>{t('topK')}</Label>
          <Group>
            <Input placeholder={defaults ? String(defaults.top_k) : undefined} />
          </Group>
        </NumberField>
        <NumberField value={threshold} onChange={setThreshold} minValue={0} maxValue={1} step={0.01}>
          <Label>{t('threshold')}</Label>
          <Group>
            <Input placeholder={defaults ? String(defaults.score_threshold) : undefined} />
          </Group>
        </NumberField>
      </div>
      <div>
        <Button type="submit" className="react-aria-Button primary" isPending={pending}>
          {pending ? t('testing') : t('test')}
        </Button>
      </div>
    </Form>
  );
}
