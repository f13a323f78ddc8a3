import { type FormEvent, useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { api, ApiFailure } from '../../api/client.ts';
import { useCan } from '../../session/session.tsx';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { ConfirmButton } from './ConfirmButton.tsx';
import { useKnowledgeBase } from './context.ts';
import './knowledge-bases.css';
import { useKnowledgeBaseText } from './messages.ts';
import { ReindexPanel } from './ReindexPanel.tsx';
import { draftOf, fieldOf, patchOf, type SettingsDraft } from './settings-draft.ts';
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
  const [modelChanged, setModelChanged] = useState(false);
  const path = { params: { path: { kb_id: knowledgeBase.id } } };

  // A refusal that names a field (a 400's param) is shown at that field rather than below the form.
  const field = error instanceof ApiFailure ? fieldOf(error.param) : null;

  async function save(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setSaved(false);
    try {
      const { data } = await api.PATCH('/v1/knowledge-bases/{kb_id}', { ...path, body: patchOf(draft) });
      if (data!.settings.embedding_model !== knowledgeBase.settings.embedding_model) setModelChanged(true);
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
          draft={draft}
          readOnly={!canWrite}
          errors={field ? { [field]: (error as ApiFailure).message } : {}}
          change={(patch) => {
            setSaved(false);
            if (field && field in patch) setError(null);
            setDraft((current) => ({ ...current, ...patch }));
          }}
        />
        {!field && <ErrorNote error={error} />}
        {canWrite && (
          <div className="row">
            <Button type="submit" className="react-aria-Button primary" isPending={pending}>
              {pending ? t('saving') : t('save')}
            </Button>
            <span role="status">{saved ? t('saved') : ''}</span>
          </div>
        )}
      </Form>
      <ReindexPanel knowledgeBase={knowledgeBase} setKnowledgeBase={setKnowledgeBase} canWrite={canWrite} modelChanged={modelChanged} onStarted={() => setModelChanged(false)} />
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
