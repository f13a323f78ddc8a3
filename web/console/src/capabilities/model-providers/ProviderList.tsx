import { api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { useResource } from '../knowledge-bases/useResource.ts';
import { useModelsText } from './messages.ts';
import { ProviderCard } from './ProviderCard.tsx';
import { ProviderDialog } from './ProviderDialog.tsx';

/** The workspace's model providers (admin keys of the whole workspace only: the API refuses the others). */
export function ProviderList({ onChanged }: { onChanged(): void }) {
  const t = useModelsText();
  const { data, error, reload } = useResource(
    async (signal) => (await api.GET('/v1/model-providers', { params: { query: { limit: 100, order: 'asc' } }, signal })).data!.data,
    [],
  );
  // A provider's models are in the models table too: both are read again.
  const changed = () => {
    reload();
    onChanged();
  };
  return (
    <section className="stack" aria-labelledby="providers-heading">
      <div className="spread">
        <div>
          <h2 id="providers-heading">{t('providersHeading')}</h2>
          <p className="muted">{t('providersIntro')}</p>
        </div>
        <ProviderDialog onSaved={changed} />
      </div>
      <ErrorNote error={error} />
      {!data && !error && <p aria-live="polite">{t('loading')}</p>}
      {data?.length === 0 && <p className="card muted">{t('noProviders')}</p>}
      {data && data.length > 0 && (
        <ul className="provider-list" aria-label={t('providersLabel')}>
          {data.map((provider) => (
            <li key={provider.id}>
              <ProviderCard provider={provider} onChanged={changed} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
