import { Checkbox, CheckboxGroup, Label, Text } from 'react-aria-components';
import { api } from '../api/client.ts';
import { useResource } from '../capabilities/knowledge-bases/useResource.ts';
import { ErrorNote } from './ErrorNote.tsx';
import './knowledge-base-checks.css';

type Props = {
  label: string;
  description?: string;
  emptyText: string;
  value: string[];
  onChange(ids: string[]): void;
  isDisabled?: boolean;
};

/** A checkbox per knowledge base of the workspace (GET /v1/knowledge-bases), by name. */
export function KnowledgeBaseChecks({ label, description, emptyText, value, onChange, isDisabled }: Props) {
  const { data, error } = useResource(async (signal) => (await api.GET('/v1/knowledge-bases', { params: { query: { limit: 100 } }, signal })).data!.data, []);
  return (
    <CheckboxGroup value={value} onChange={onChange} isDisabled={isDisabled} className="react-aria-CheckboxGroup kb-checks">
      <Label>{label}</Label>
      {description && <Text slot="description">{description}</Text>}
      <ErrorNote error={error} />
      {data?.length === 0 && <p className="muted">{emptyText}</p>}
      {data?.map((kb) => (
        <Checkbox key={kb.id} value={kb.id}>
          <div className="box" />
          {kb.name}
        </Checkbox>
      ))}
    </CheckboxGroup>
  );
}
