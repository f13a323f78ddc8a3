import type { ReactNode } from 'react';
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';

export type SelectOption<K extends string> = { id: K; label: string; textValue?: string };

type Props<K extends string> = {
  label: string;
  options: readonly SelectOption<K>[];
  selectedKey: K;
  onChange(key: K): void;
  isDisabled?: boolean;
  /** A help line under the select, named as its description: a `<Text slot="description">`. */
  description?: ReactNode;
};

/** A labelled React Aria Select over a list of options: the trigger, its arrow and the popover every select of the console draws. */
export function SelectField<K extends string>({ label, options, selectedKey, onChange, isDisabled, description }: Props<K>) {
  return (
    <Select selectedKey={selectedKey} onSelectionChange={(key) => key !== null && onChange(String(key) as K)} isDisabled={isDisabled}>
      <Label>{label}</Label>
      <Button>
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      {description}
      <Popover>
        <ListBox items={options}>{(option) => <ListBoxItem id={option.id} textValue={option.textValue ?? option.label}>{option.label}</ListBoxItem>}</ListBox>
      </Popover>
    </Select>
  );
}
