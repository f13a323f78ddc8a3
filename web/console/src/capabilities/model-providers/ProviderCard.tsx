import { api } from '../../api/client.ts';
import { ConfirmButton } from '../knowledge-bases/ConfirmButton.tsx';
import { shortKey } from './key-hint.ts';
import { useModelsText } from './messages.ts';
import { ProviderDialog } from './ProviderDialog.tsx';
import { TestConnection } from './TestConnection.tsx';
import type { Provider } from './types.ts';

/** One provider: where it is, its key's hint, its models, and what an admin can do with it. */
export function ProviderCard({ provider, onChanged }: { provider: Provider; onChanged(): void }) {
  const t = useModelsText();
  const headingId = `provider-${provider.id}`;
  return (
    <article className="card provider-card" aria-labelledby={headingId}>
      <div className="spread">
        <div>
          <h3 id={headingId}>{provider.name}</h3>
          <p className="muted provider-where">
            <span className="mono">{provider.base_url}</span> ·{' '}
            {/* The API shows a key's last four characters only when it has eight or more; else its hint is a bare "…". */}
            {shortKey(provider.api_key_hint) ? (
              t('keyShort')
            ) : (
              <>
                {t('key')} <span className="mono">{provider.api_key_hint}</span>
              </>
            )}
          </p>
        </div>
        <div className="row">
          <ProviderDialog provider={provider} onSaved={onChanged} />
          <ConfirmButton
            label={t('delete')}
            confirmLabel={t('delete')}
            cancelLabel={t('cancel')}
            question={t('confirmDelete', { name: provider.name })}
            onConfirm={async () => {
              await api.DELETE('/v1/model-providers/{provider_id}', { params: { path: { provider_id: provider.id } } });
              onChanged();
            }}
          />
        </div>
      </div>
      {provider.models.length === 0 ? (
        <p className="muted">{t('noProviderModels')}</p>
      ) : (
        <ul className="model-chips" aria-label={t('modelsOfProvider')}>
          {provider.models.map((model) => (
            <li key={model.id}>
              <span className="mono">{model.id}</span> <span className={`status model-type-${model.type}`}>{t(`type_${model.type}`)}</span>
              {model.dimensions !== undefined && <span className="muted"> {t('dimensionsShort', { n: model.dimensions })}</span>}
            </li>
          ))}
        </ul>
      )}
      <TestConnection providerId={provider.id} />
    </article>
  );
}
