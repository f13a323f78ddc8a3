import { useId, useRef, useState } from 'react';
import { Checkbox, FieldError, Input, Label, NumberField, Text, TextArea, TextField } from 'react-aria-components';
import { api } from '../../../api/client.ts';
import { SelectField } from '../../../ui/SelectField.tsx';
import { ChatModelSelect } from '../../agents/ChatModelSelect.tsx';
import { useResource } from '../../knowledge-bases/useResource.ts';
import type { CanvasGraph } from './graph.ts';
import { useCanvasText } from './messages.ts';
import { type FieldText, useNodeText } from './node-text.ts';
import type { FieldSpec } from './node-types.ts';
import { ReferenceMenu } from './ReferenceMenu.tsx';

type Props = { spec: FieldSpec; nodeType: string; value: unknown; onChange(value: unknown): void; graph: CanvasGraph; nodeId: string };
type Drawn = Props & { words: FieldText };

/** The field's help line: a description its control names (aria-describedby), and its API name for people reading the API docs. */
function Help({ words, name, id }: { words: FieldText; name: string; id?: string }) {
  const body = (
    <>
      {words.help} <code className="type-id">{name}</code>
    </>
  );
  return id ? (
    <span id={id} className="hint">
      {body}
    </span>
  ) : (
    <Text slot="description" className="hint">
      {body}
    </Text>
  );
}

/** One config field of the side panel, drawn by its kind, with its label and help in the console's language; `undefined` leaves an optional field out. */
export function ConfigField(props: Props) {
  const words = useNodeText();
  const drawn: Drawn = { ...props, words: words.field(props.nodeType, props.spec.name) };
  const { spec, value, onChange } = props;
  const label = drawn.words.label;
  const help = <Help words={drawn.words} name={spec.name} />;
  const kind = spec.kind;
  if (kind === 'template') return <TemplateField {...drawn} />;
  if (kind === 'json') return <JsonField {...drawn} />;
  if (kind === 'number') {
    return (
      <NumberField value={typeof value === 'number' ? value : NaN} onChange={(n) => onChange(Number.isNaN(n) ? undefined : n)} formatOptions={{ useGrouping: false, maximumFractionDigits: 6 }}>
        <Label>{label}</Label>
        <Input />
        {help}
      </NumberField>
    );
  }
  if (kind === 'boolean') return <BooleanField {...drawn} />;
  if (kind === 'knowledge_base') return <KnowledgeBaseField {...drawn} />;
  if (kind === 'model') return <ChatModelSelect label={label} description={help} value={typeof value === 'string' && value !== '' ? value : null} onChange={onChange} />;
  if (kind === 'text') {
    return (
      <TextField value={typeof value === 'string' ? value : ''} onChange={(text) => onChange(text === '' ? undefined : text)}>
        <Label>{label}</Label>
        <Input />
        {help}
      </TextField>
    );
  }
  const options = kind.choices.map((choice) => ({ id: choice, label: words.choice(props.nodeType, spec.name, choice) }));
  return <SelectField label={label} description={help} options={options} selectedKey={typeof value === 'string' ? value : ''} onChange={onChange} />;
}

/**
 * A yes/no field as a checkbox named by its label. Unset until ticked or unticked, so the server's
 * default applies (rerank: the knowledge base's setting) until the user says otherwise.
 */
function BooleanField({ spec, value, onChange, words }: Drawn) {
  const helpId = useId();
  return (
    <div className="boolean-field">
      <Checkbox isSelected={value === true} onChange={onChange} aria-describedby={helpId}>
        <span className="box" aria-hidden="true" />
        {words.label}
      </Checkbox>
      <Help words={words} name={spec.name} id={helpId} />
    </div>
  );
}

/** A template: text with `{{node.field}}` references, and the picker that inserts one at the caret. */
function TemplateField({ spec, value, onChange, graph, nodeId, words }: Drawn) {
  const text = typeof value === 'string' ? value : '';
  const area = useRef<HTMLTextAreaElement>(null);
  function insert(reference: string) {
    const at = area.current?.selectionStart ?? text.length;
    const to = area.current?.selectionEnd ?? at;
    onChange(text.slice(0, at) + reference + text.slice(to));
    area.current?.focus();
  }
  return (
    <div className="template-field">
      <TextField value={text} onChange={(next) => onChange(next === '' && spec.optional ? undefined : next)}>
        <Label>{words.label}</Label>
        <TextArea ref={area} rows={spec.name === 'code' ? 6 : 2} className="react-aria-TextArea mono" />
        <Help words={words} name={spec.name} />
      </TextField>
      <ReferenceMenu graph={graph} nodeId={nodeId} field={words.label} onInsert={insert} />
    </div>
  );
}

/** Complex config (lists, objects) as JSON: applied once it parses, and said so when it does not. */
function JsonField({ spec, value, onChange, words }: Drawn) {
  const t = useCanvasText();
  const shown = value === undefined ? '' : JSON.stringify(value, null, 2);
  const [text, setText] = useState(shown);
  const [invalid, setInvalid] = useState(false);
  // Undo, redo or another field's edit replaced the value: show it, unless this text already says it.
  const [last, setLast] = useState(shown);
  if (shown !== last) {
    setLast(shown);
    if (!sameJson(text, value)) setText(shown);
  }
  function change(next: string) {
    setText(next);
    if (next.trim() === '') {
      setInvalid(false);
      onChange(undefined);
      return;
    }
    try {
      onChange(JSON.parse(next));
      setInvalid(false);
    } catch {
      setInvalid(true);
    }
  }
  return (
    <TextField value={text} onChange={change} isInvalid={invalid}>
      <Label>{t('jsonField', { field: words.label })}</Label>
      <TextArea rows={Math.min(10, Math.max(3, text.split('\n').length))} className="react-aria-TextArea mono" />
      <Help words={words} name={spec.name} />
      <FieldError>{t('notJson')}</FieldError>
    </TextField>
  );
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

function KnowledgeBaseField({ spec, value, onChange, words }: Drawn) {
  const { data } = useResource(async (signal) => (await api.GET('/v1/knowledge-bases', { params: { query: { limit: 100 } }, signal })).data!.data, []);
  const options = (data ?? []).map((kb) => ({ id: kb.id, label: kb.name, textValue: kb.name }));
  const current = typeof value === 'string' ? value : '';
  if (current && data && !options.some((o) => o.id === current)) options.unshift({ id: current, label: current, textValue: current });
  return <SelectField label={words.label} description={<Help words={words} name={spec.name} />} options={options} selectedKey={current} onChange={onChange} isDisabled={!data} />;
}
