import { type ReactNode, useEffect } from 'react';
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { api } from '../../api/client.ts';
import { useResource } from '../knowledge-bases/useResource.ts';

type Props = {
  label: string;
  value: string | null;
  onChange(id: string): void;
  isDisabled?: boolean;
  /** A help line, named as the select's description: a `<Text slot="description">`. */
  description?: ReactNode;
};

/**
 * A chat model of GET /v1/models (the deployment's and the workspace providers'; agents, listed
 * there too, are left out: an agent cannot answer through another). With none chosen yet, the
 * first is, so "Create" works without a visit to the list.
 */
export function ChatModelSelect({ label, value, onChange, isDisabled, description }: Props) {
  const { data } = useResource(async (signal) => (await api.GET('/v1/models', { signal })).data!.data.filter((model) => model.type === 'chat'), []);
  const ids = (data ?? []).map((model) => model.id);
  const first = ids[0];
  useEffect(() => {
    if (value === null && first) onChange(first);
  }, [value, first, onChange]);
  // The current one stays choosable even when the list no longer has it (a provider removed).
  if (value && data && !ids.includes(value)) ids.unshift(value);
  return (
    <Select selectedKey={value} onSelectionChange={(key) => key !== null && onChange(String(key))} isDisabled={isDisabled}>
      <Label>{label}</Label>
      <Button>
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      {description}
      <Popover>
        <ListBox items={ids.map((id) => ({ id }))}>{(item) => <ListBoxItem id={item.id}>{item.id}</ListBoxItem>}</ListBox>
      </Popover>
    </Select>
  );
}
