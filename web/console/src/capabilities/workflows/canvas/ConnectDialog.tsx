import { type FormEvent, useState } from 'react';
import { Button, Dialog, DialogTrigger, Form, Heading, Input, Label, Modal, TextField } from 'react-aria-components';
import { SelectField } from '../../../ui/SelectField.tsx';
import { type CanvasEdge, type CanvasGraph, parseWhen } from './graph.ts';
import { useCanvasText } from './messages.ts';
import { branchesOf, unusedBranch } from './node-types.ts';

/** The `when` offered for an edge out of `from`, as text: its next unused branch, or nothing. */
const branchText = (graph: CanvasGraph, from: string) => {
  const value = unusedBranch(graph, from);
  return value === undefined ? '' : String(value);
};

/** "Connect": the keyboard's way to draw an edge, by picking the two nodes by id and, out of a branch, its `when`. */
export function ConnectDialog({ graph, onConnect }: { graph: CanvasGraph; onConnect(edge: CanvasEdge): void }) {
  const t = useCanvasText();
  return (
    <DialogTrigger>
      <Button isDisabled={graph.nodes.length < 2}>{t('connect')}</Button>
      <Modal isDismissable>
        <Dialog>{({ close }) => <ConnectForm graph={graph} close={close} onConnect={onConnect} />}</Dialog>
      </Modal>
    </DialogTrigger>
  );
}

function ConnectForm({ graph, close, onConnect }: { graph: CanvasGraph; close(): void; onConnect(edge: CanvasEdge): void }) {
  const t = useCanvasText();
  const ids = graph.nodes.map((node) => node.id);
  const [from, setFrom] = useState(ids.at(-2) ?? ids[0]!);
  const [to, setTo] = useState(ids.at(-1)!);
  const [when, setWhen] = useState(() => branchText(graph, from));
  const branches = branchesOf(graph.nodes.find((node) => node.id === from)!);
  const options = ids.map((id) => ({ id, label: id }));

  function submit(event: FormEvent) {
    event.preventDefault();
    onConnect({ from, to, ...(parseWhen(when) !== undefined && { when: parseWhen(when) }) });
    close();
  }
  return (
    <Form onSubmit={submit} className="stack">
      <Heading slot="title">{t('connectTitle')}</Heading>
      <SelectField
        label={t('fromNode')}
        options={options}
        selectedKey={from}
        onChange={(id) => {
          setFrom(id);
          setWhen(branchText(graph, id));
        }}
      />
      <SelectField label={t('toNode')} options={options} selectedKey={to} onChange={setTo} />
      <TextField value={when} onChange={setWhen}>
        <Label>{t('when')}</Label>
        <Input />
        <span slot="description" className="hint">
          {branches ? t('whenBranches', { values: branches.map(String).join(', ') }) : t('whenNone')}
        </span>
      </TextField>
      <div className="dialog-actions">
        <Button onPress={close}>{t('cancel')}</Button>
        <Button type="submit" className="react-aria-Button primary" isDisabled={from === to}>
          {t('connectAction')}
        </Button>
      </div>
    </Form>
  );
}
