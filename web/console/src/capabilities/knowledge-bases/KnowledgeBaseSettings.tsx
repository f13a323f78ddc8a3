import { type FormEvent, useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { useCan } from '../../session/session.tsx';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { ConfirmButton } from './ConfirmButton.tsx';
import { useKnowledgeBase } from './context.ts';
import './knowledge-bases.css';
import { useKnowledgeBaseText } from './messages.ts';
import { draftOf, patchOf, type SettingsDraft } from './settings-draft.ts';
import { SettingsFields } from './SettingsFields.tsx';

/** /knowledge-bases/:kbId/settings: name, description and settings (PATCH, deep-merged), and deleting the base. */
export default function KnowledgeBaseSettings() {
  const t = useKnowledgeBaseText();
  const canWrite = useCan('write');
  const navigate = useNavigate();
  const { knowledgeBase, setKnowledgeBase } = useKnowledgeBase();
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(knowledgeBase));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const path = { params: { path: { kb_id: knowledgeBase.id } } };

  async function save(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setSaved(false);
    try {
      const { data } = await api.PATCH('/v1/knowledge-bases/{kb_id}', { ...path, body: patchOf(draft) });
      setKnowledgeBase(data!);
      setDraft(draftOf(data!));
      setSaved(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="stack kb-settings">
      <h2>{t('settings')}</h2>
      <Form onSubmit={save} className="stack">
        <SettingsFields
          knowledgeBaseId={knowledgeBase.id}
          draft={draft}
          readOnly={!canWrite}
          change={(patch) => {
            setSaved(false);
            setDraft((current) => ({ ...current, ...patch }));
          }}
        />
        <ErrorNote error={error} />
        {canWrite && (
          <div className="row">
            <Button type="submit" className="react-aria-Button primary" isPending={pending}>
              {pending ? t('saving') : t('save')}
            </Button>
            <span role="status">{saved ? t('saved') : ''}</span>
          </div>
        )}
      </Form>
      {canWrite && (
        <section className="card danger-zone stack" aria-labelledby="kb-danger">
          <h3 id="kb-danger">{t('dangerZone')}</h3>
          <p className="muted">{t('dangerHint')}</p>
          <div>
            <ConfirmButton
              label={t('delete')}
              confirmLabel={t('confirm')}
              cancelLabel={t('cancel')}
              question={t('confirmDelete', { name: knowledgeBase.name })}
              onConfirm={async () => {
                await api.DELETE('/v1/knowledge-bases/{kb_id}', path);
                void navigate('/knowledge-bases');
              }}
            />
          </div>
        </section>
      )}
    </div>
  );
}
