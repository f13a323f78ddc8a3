import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { useModelsText } from './messages.ts';
import type { ProviderModel } from './types.ts';

type Props = { providerId: string; entries: ProviderModel[]; onChange(entries: ProviderModel[]): void };

/**
 * "Discover models": asks the saved provider its own /models and adds the ids not listed yet. OpenAI's
 * list carries no type, so an id that does not say it is an embedding or rerank model comes in as chat.
 */
export function DiscoverModels({ providerId, entries, onChange }: Props) {
  const t = useModelsText();
  const [pending, setPending] = useState(false);
  const [found, setFound] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function discover() {
    setPending(true);
    setError(null);
    setFound(null);
    try {
      const { data } = await api.POST('/v1/model-providers/{provider_id}/discover', { params: { path: { provider_id: providerId } } });
      const known = new Set(entries.map((e) => e.id));
      const added = data!.data.filter((m) => !known.has(m.id)).map((m): ProviderModel => ({ id: m.id, type: m.type ?? 'chat' }));
      onChange([...entries, ...added]);
      setFound(data!.data.length);
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <Button onPress={discover} isDisabled={pending}>
        {t('discover')}
      </Button>
      <span aria-live="polite" className="muted">
        {pending ? t('discovering') : found !== null ? t('discovered', { count: found }) : ''}
      </span>
      <ErrorNote error={error} />
    </>
  );
}
