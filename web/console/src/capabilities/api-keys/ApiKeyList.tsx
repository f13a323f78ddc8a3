import { useState } from 'react';
import { api } from '../../api/client.ts';
import { useCan, useSession } from '../../session/session.tsx';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { useResource } from '../knowledge-bases/useResource.ts';
import '../../ui/radio.css';
import './api-keys.css';
import { ApiKeyTable } from './ApiKeyTable.tsx';
import { useApiKeyText } from './messages.ts';
import { type CreatedKey, NewApiKeyDialog } from './NewApiKeyDialog.tsx';
import { SecretDialog } from './SecretDialog.tsx';

/** /api-keys: the workspace's keys, a new one (its secret shown once), revocation. Admin scope only. */
export default function ApiKeyList() {
  const t = useApiKeyText();
  const isAdmin = useCan('admin');
  return (
    <section className="stack">
      <div>
        <h1>{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
      </div>
      {isAdmin ? <ApiKeys /> : <p className="card">{t('adminOnly')}</p>}
    </section>
  );
}

function ApiKeys() {
  const t = useApiKeyText();
  const { session } = useSession();
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const { data: keys, setData: setKeys, error } = useResource(async (signal) => (await api.GET('/v1/api-keys', { params: { query: { limit: 100 } }, signal })).data!.data, []);
  const { data: kbs } = useResource(async (signal) => (await api.GET('/v1/knowledge-bases', { params: { query: { limit: 100 } }, signal })).data!.data, []);
  const kbNames = new Map((kbs ?? []).map((kb) => [kb.id, kb.name]));

  function add(key: CreatedKey) {
    // The secret lives only in the dialog's state: the list keeps the key without it.
    const { secret: _secret, ...listed } = key;
    setKeys((all) => [listed, ...(all ?? [])]);
    setCreated(key);
  }

  return (
    <>
      <div className="spread">
        <span />
        <NewApiKeyDialog onCreated={add} />
      </div>
      <ErrorNote error={error} />
      {!keys && !error && <p aria-live="polite">{t('loading')}</p>}
      {keys?.length === 0 && <p className="muted">{t('empty')}</p>}
      {keys && keys.length > 0 && (
        <ApiKeyTable keys={keys} kbNames={kbNames} ownKeyId={session?.key_id} onRevoked={(id) => setKeys((all) => all?.filter((key) => key.id !== id))} />
      )}
      <SecretDialog created={created} onClose={() => setCreated(null)} />
    </>
  );
}
