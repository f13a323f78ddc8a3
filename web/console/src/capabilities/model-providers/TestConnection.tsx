import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { useModelsText } from './messages.ts';
import type { ConnectionCheck } from './types.ts';

/** "Test connection": the API asks the provider's /models with its key and says, in words, how that went. */
export function TestConnection({ providerId }: { providerId: string }) {
  const t = useModelsText();
  const [pending, setPending] = useState(false);
  const [check, setCheck] = useState<ConnectionCheck | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function test() {
    setPending(true);
    setError(null);
    setCheck(null);
    try {
      setCheck((await api.POST('/v1/model-providers/{provider_id}/test', { params: { path: { provider_id: providerId } } })).data!);
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="connection-test">
      <Button onPress={test} isDisabled={pending}>
        {t('testConnection')}
      </Button>
      <p aria-live="polite" className="connection-result">
        {pending && <span className="muted">{t('testing')}</span>}
        {check?.ok && <span className="status status-ready">{t('testOk', { ms: check.latency_ms })}</span>}
        {check && !check.ok && (
          <span className="status status-failed">{t('testFailed', { code: check.error?.code ?? 'error', message: check.error?.message ?? '' })}</span>
        )}
      </p>
      <ErrorNote error={error} />
    </div>
  );
}
