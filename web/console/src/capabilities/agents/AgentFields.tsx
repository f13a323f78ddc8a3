import { Input, Label, Text, TextArea, TextField } from 'react-aria-components';
import { KnowledgeBaseChecks } from '../../ui/KnowledgeBaseChecks.tsx';
import type { AgentForm } from './agent-draft.ts';
import { ChatModelSelect } from './ChatModelSelect.tsx';
import { useAgentText } from './messages.ts';

export type FieldProps = { form: AgentForm; change(patch: Partial<AgentForm>): void; readOnly: boolean };

/** What the agent is: name, model, what it answers from, its instructions and how it opens. */
export function AgentFields({ form, change, readOnly, workflowId }: FieldProps & { workflowId: string | null }) {
  const t = useAgentText();
  return (
    <>
      <TextField isRequired isReadOnly={readOnly} value={form.name} onChange={(name) => change({ name })} maxLength={200}>
        <Label>{t('name')}</Label>
        <Input />
      </TextField>
      <ChatModelSelect label={t('model')} value={form.model} onChange={(model) => change({ model })} isDisabled={readOnly} />
      {workflowId ? (
        <p className="muted">{t('workflowBacked', { id: workflowId })}</p>
      ) : (
        <KnowledgeBaseChecks
          label={t('knowledgeBases')}
          description={t('knowledgeBasesHint')}
          emptyText={t('noKnowledgeBases')}
          value={form.knowledgeBaseIds}
          onChange={(knowledgeBaseIds) => change({ knowledgeBaseIds })}
          isDisabled={readOnly}
        />
      )}
      <TextField isReadOnly={readOnly} value={form.instructions} onChange={(instructions) => change({ instructions })}>
        <Label>{t('instructions')}</Label>
        <TextArea rows={6} />
        <Text slot="description">{t('instructionsHint')}</Text>
      </TextField>
      <TextField isReadOnly={readOnly} value={form.openingMessage} onChange={(openingMessage) => change({ openingMessage })}>
        <Label>{t('openingMessage')}</Label>
        <TextArea rows={2} />
        <Text slot="description">{t('openingHint')}</Text>
      </TextField>
      <TextField isReadOnly={readOnly} value={form.suggestedQuestions} onChange={(suggestedQuestions) => change({ suggestedQuestions })}>
        <Label>{t('suggestedQuestions')}</Label>
        <TextArea rows={3} />
        <Text slot="description">{t('suggestedHint')}</Text>
      </TextField>
    </>
  );
}
