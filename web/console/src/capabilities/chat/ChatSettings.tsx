import { type Dispatch, type SetStateAction, useEffect, useState } from 'react';
import { Button, Checkbox, CheckboxGroup, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Text } from 'react-aria-components';
import { type Answer, api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { initialKnowledgeBases, rememberedKnowledgeBases, rememberKnowledgeBases } from './knowledge-base-choice.ts';
import { useChatText } from './messages.ts';
import type { ChatSetup } from './use-chat.ts';

type Model = Answer<'/v1/models', 'get'>['data'][number];
type KnowledgeBase = Answer<'/v1/knowledge-bases', 'get'>['data'][number];

type Props = { setup: ChatSetup; onChange: Dispatch<SetStateAction<ChatSetup>>; workspace: string };

/** The chat model (GET /v1/models, chat ones) and the knowledge bases answers come from (the last chosen, else the first, start ticked). */
export function ChatSettings({ setup, onChange, workspace }: Props) {
  const t = useChatText();
  const [models, setModels] = useState<Model[] | null>(null);
  const [knowledgeBases, setKnowledgeBases] = useState<KnowledgeBase[]>([]);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    api.GET('/v1/models').then(({ data }) => setModels(data!.data.filter((m) => m.type === 'chat')), setError);
    api.GET('/v1/knowledge-bases', { params: { query: { limit: 100 } } }).then(({ data }) => {
      setKnowledgeBases(data!.data);
      const ids = initialKnowledgeBases(
        data!.data.map((kb) => kb.id),
        rememberedKnowledgeBases(workspace),
      );
      // Unless the user ticked some while the list loaded.
      onChange((current) => (current.knowledgeBaseIds.length === 0 ? { ...current, knowledgeBaseIds: ids } : current));
    }, setError);
  }, [workspace, onChange]);

  return (
    <div className="chat-settings stack">
      <Select selectedKey={setup.model} onSelectionChange={(key) => onChange({ ...setup, model: String(key) })} isDisabled={!models}>
        <Label>{t('model')}</Label>
        <Button>
          <SelectValue>{({ isPlaceholder, defaultChildren }) => (isPlaceholder && !models ? t('loadingModels') : defaultChildren)}</SelectValue>
          <span aria-hidden="true">▾</span>
        </Button>
        <Popover>
          <ListBox items={models ?? []}>{(model) => <ListBoxItem id={model.id}>{model.id}</ListBoxItem>}</ListBox>
        </Popover>
      </Select>
      {/* Above the knowledge bases, not below: there a forced click on a checkbox's hidden input landed on this field. */}
      <div className="as-of stack-tight">
        <label htmlFor="chat-as-of">{t('asOf')}</label>
        <input id="chat-as-of" type="datetime-local" step={1} value={setup.asOf ?? ''} aria-describedby="as-of-hint" onChange={(event) => onChange({ ...setup, asOf: event.target.value })} />
        <span id="as-of-hint" className="hint">
          {t('asOfHint')}
        </span>
      </div>
      <CheckboxGroup value={setup.knowledgeBaseIds} onChange={(ids) => {
          rememberKnowledgeBases(workspace, ids);
          onChange({ ...setup, knowledgeBaseIds: ids });
        }} className="react-aria-CheckboxGroup kb-choice">
        <Label>{t('knowledgeBases')}</Label>
        <Text slot="description" className="hint">
          {t('knowledgeBasesHint')}
        </Text>
        {knowledgeBases.length === 0 && <p className="muted">{t('noKnowledgeBases')}</p>}
        {knowledgeBases.map((kb) => (
          <Checkbox key={kb.id} value={kb.id}>
            <div className="box" />
            {kb.name}
          </Checkbox>
        ))}
      </CheckboxGroup>
      <ErrorNote error={error} />
    </div>
  );
}
