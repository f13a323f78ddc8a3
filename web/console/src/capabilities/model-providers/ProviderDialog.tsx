import { type FormEvent, useState } from 'react';
import { Button, Dialog, DialogTrigger, Form, Heading, Input, Label, Modal, Text, TextField } from 'react-aria-components';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { shortKey } from './key-hint.ts';
import { useModelsText } from './messages.ts';
import { ModelEntries } from './ModelEntries.tsx';
import type { Provider, ProviderBody, ProviderModel } from './types.ts';

type Props = {
  /** The provider to edit; none: "Add model provider". */
  provider?: Provider;
  onSaved(): void;
};

/** "Add model provider" or "Edit": one form, POST or PATCH. */
export function ProviderDialog({ provider, onSaved }: Props) {
  const t = useModelsText();
  return (
    <DialogTrigger>
      <Button className={provider ? 'react-aria-Button' : 'react-aria-Button primary'}>{provider ? t('edit') : t('addProvider')}</Button>
      <Modal isDismissable className="react-aria-Modal provider-modal">
        <Dialog>{({ close }) => <ProviderForm provider={provider} close={close} onSaved={onSaved} />}</Dialog>
      </Modal>
    </DialogTrigger>
  );
}

function ProviderForm({ provider, close, onSaved }: Props & { close(): void }) {
  const t = useModelsText();
  const [name, setName] = useState(provider?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(provider?.base_url ?? '');
  const [apiKey, setApiKey] = useState('');
  const [models, setModels] = useState<ProviderModel[]>(provider?.models ?? []);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const body: ProviderBody = { name: name.trim(), base_url: baseUrl.trim(), api_key: apiKey, models: models.map((m) => ({ ...m, id: m.id.trim() })) };
    try {
      if (provider) await api.PATCH('/v1/model-providers/{provider_id}', { params: { path: { provider_id: provider.id } }, body: changes(provider, body) });
      else await api.POST('/v1/model-providers', { body });
      close();
      onSaved();
    } catch (failure) {
      setError(failure);
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="stack">
      <Heading slot="title">{provider ? t('editProvider') : t('addProvider')}</Heading>
      <TextField isRequired autoFocus value={name} onChange={setName} maxLength={32}>
        <Label>{t('name')}</Label>
        <Input spellCheck={false} placeholder="ollama" />
        <Text slot="description">{t('nameHint', { example: `${name.trim() || 'ollama'}/llama3.1:8b` })}</Text>
      </TextField>
      <TextField isRequired value={baseUrl} onChange={setBaseUrl}>
        <Label>{t('baseUrl')}</Label>
        <Input spellCheck={false} placeholder="https://api.openai.com/v1" />
        <Text slot="description">{t('baseUrlHint')}</Text>
      </TextField>
      <TextField isRequired={!provider} type="password" value={apiKey} onChange={setApiKey} autoComplete="off">
        <Label>{t('apiKey')}</Label>
        <Input spellCheck={false} />
        <Text slot="description">{provider ? (shortKey(provider.api_key_hint) ? t('apiKeyKeepShort') : t('apiKeyKeep', { hint: provider.api_key_hint })) : t('apiKeyHint')}</Text>
      </TextField>
      <fieldset className="provider-models">
        <legend>{t('modelsOfProvider')}</legend>
        <ModelEntries providerId={provider?.id} entries={models} onChange={setModels} />
      </fieldset>
      <ErrorNote error={error} />
      <div className="dialog-actions">
        <Button onPress={close}>{t('cancel')}</Button>
        <Button type="submit" className="react-aria-Button primary" isDisabled={pending}>
          {provider ? t('save') : t('add')}
        </Button>
      </div>
    </Form>
  );
}

/** Only what changed: the key is replaced only when one was typed, and an unchanged name is no rename (which a user of its models would refuse). */
function changes(provider: Provider, body: ProviderBody): Partial<ProviderBody> {
  return {
    ...(body.name !== provider.name && { name: body.name }),
    ...(body.base_url !== provider.base_url && { base_url: body.base_url }),
    ...(body.api_key !== '' && { api_key: body.api_key }),
    ...(JSON.stringify(body.models) !== JSON.stringify(provider.models) && { models: body.models }),
  };
}
