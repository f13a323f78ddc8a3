import { useRef, useState } from 'react';
import { FieldError, Input, Label, NumberField, TextArea, TextField } from 'react-aria-components';
import { api } from '../../../api/client.ts';
import { SelectField } from '../../../ui/SelectField.tsx';
import { ChatModelSelect } from '../../agents/ChatModelSelect.tsx';
import { useResource } from '../../knowledge-bases/useResource.ts';
import type { CanvasGraph } from './graph.ts';
import { useCanvasText } from './messages.ts';
import type { FieldSpec } from './node-types.ts';
import { ReferenceMenu } from './ReferenceMenu.tsx';

type Props = { spec: FieldSpec; value: unknown; onChange(value: unknown): void; graph: CanvasGraph; nodeId: string };

/** One config field of the side panel, drawn by its kind; `undefined` leaves an optional field out. */
export function ConfigField(props: Props) {
  const { spec, value, onChange } = props;
  const kind = spec.kind;
  if (kind === 'template') return <TemplateField {...props} />;
  if (kind === 'json') return <JsonField {...props} />;
  if (kind === 'number') {
    return (
      <NumberField value={typeof value === 'number' ? value : NaN} onChange={(n) => onChange(Number.isNaN(n) ? undefined : n)} formatOptions={{ useGrouping: false, maximumFractionDigits: 6 }}>
        <Label>{spec.name}</Label>
        <Input />
      </NumberField>
    );
  }
  if (kind === 'boolean') {
    // Unset until chosen: the server's default applies, as for the other choices.
    const options = [true, false].map((choice) => ({ id: String(choice), label: String(choice) }));
    return <SelectField label={spec.name} options={options} selectedKey={typeof value === 'boolean' ? String(value) : ''} onChange={(key) => onChange(key === 'true')} />;
  }
  if (kind === 'knowledge_base') return <KnowledgeBaseField {...props} />;
  if (kind === 'model') return <ChatModelSelect label={spec.name} value={typeof value === 'string' && value !== '' ? value : null} onChange={onChange} />;
  if (kind === 'text') {
    return (
      <TextField value={typeof value === 'string' ? value : ''} onChange={(text) => onChange(text === '' ? undefined : text)}>
        <Label>{spec.name}</Label>
        <Input />
      </TextField>
    );
  }
  const options = kind.choices.map((choice) => ({ id: choice, label: choice }));
  return <SelectField label={spec.name} options={options} selectedKey={typeof value === 'string' ? value : ''} onChange={onChange} />;
}

/** A template: text with `{{node.field}}` references, and the picker that inserts one at the caret. */
function TemplateField({ spec, value, onChange, graph, nodeId }: Props) {
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
        <Label>{spec.name}</Label>
        <TextArea ref={area} rows={spec.name === 'code' ? 6 : 2} className="react-aria-TextArea mono" />
      </TextField>
      <ReferenceMenu graph={graph} nodeId={nodeId} field={spec.name} onInsert={insert} />
    </div>
  );
}

/** Complex config (lists, objects) as JSON: applied once it parses, and said so when it does not. */
function JsonField({ spec, value, onChange }: Props) {
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
      <Label>{t('jsonField', { field: spec.name })}</Label>
      <TextArea rows={Math.min(10, Math.max(3, text.split('\n').length))} className="react-aria-TextArea mono" />
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

function KnowledgeBaseField({ spec, value, onChange }: Props) {
  const { data } = useResource(async (signal) => (await api.GET('/v1/knowledge-bases', { params: { query: { limit: 100 } }, signal })).data!.data, []);
  const options = (data ?? []).map((kb) => ({ id: kb.id, label: kb.name, textValue: kb.name }));
  const current = typeof value === 'string' ? value : '';
  if (current && data && !options.some((o) => o.id === current)) options.unshift({ id: current, label: current, textValue: current });
  return <SelectField label={spec.name} options={options} selectedKey={current} onChange={onChange} isDisabled={!data} />;
}
