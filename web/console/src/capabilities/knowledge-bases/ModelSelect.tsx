import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Text } from 'react-aria-components';
import { type Answer, api } from '../../api/client.ts';
import { useResource } from './useResource.ts';

type ModelType = Answer<'/v1/models', 'get'>['data'][number]['type'];

type Props = {
  label: string;
  type: ModelType;
  value: string | null;
  onChange(id: string | null): void;
  /** Offered first as `null` (the API's default), when the setting may be left to it. */
  defaultLabel?: string;
  description?: string;
  isDisabled?: boolean;
};

const DEFAULT_KEY = '__default__';

/** A model of GET /v1/models of one type (embedding, rerank): the deployment's and the workspace providers'. */
export function ModelSelect({ label, type, value, onChange, defaultLabel, description, isDisabled }: Props) {
  const { data: models = [] } = useResource(async (signal) => (await api.GET('/v1/models', { signal })).data!.data, []);
  const ids = models.filter((model) => model.type === type).map((model) => model.id);
  // The current one stays choosable even when the list no longer has it (a provider removed).
  if (value && !ids.includes(value)) ids.unshift(value);
  const items = [...(defaultLabel ? [{ id: DEFAULT_KEY, name: defaultLabel }] : []), ...ids.map((id) => ({ id, name: id }))];
  return (
    <Select selectedKey={value ?? DEFAULT_KEY} onSelectionChange={(key) => key !== null && onChange(key === DEFAULT_KEY ? null : String(key))} isDisabled={isDisabled}>
      <Label>{label}</Label>
      <Button>
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      {description && <Text slot="description">{description}</Text>}
      <Popover>
        <ListBox items={items}>{(item) => <ListBoxItem id={item.id}>{item.name}</ListBoxItem>}</ListBox>
      </Popover>
    </Select>
  );
}
