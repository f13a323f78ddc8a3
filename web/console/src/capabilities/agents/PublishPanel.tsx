import { useState } from 'react';
import { Button, Label, Radio, RadioGroup } from 'react-aria-components';
import { type Answer, api } from '../../api/client.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { ErrorNote } from '../../ui/ErrorNote.tsx';
import { ConfirmButton } from '../knowledge-bases/ConfirmButton.tsx';
import type { Agent } from './agent-draft.ts';
import { useAgentText } from './messages.ts';
import { PublicLink } from './PublicLink.tsx';

type Publication = Answer<'/v1/agents/{agent_id}/publish', 'post'>;

type Props = {
  agent: Agent;
  canWrite: boolean;
  /** Called after a publish or unpublish, to load the agent (and its versions) again. */
  onChanged(): void;
};

/**
 * Publishing: the page's address and the embed code, and the buttons that put it up or take it
 * down. The embed code comes only with a publish answer (GET /v1/agents/{id} does not carry it),
 * so it is shown after a publish made here.
 */
export function PublishPanel({ agent, canWrite, onChanged }: Props) {
  const t = useAgentText();
  const [publication, setPublication] = useState<Publication | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const url = agent.public_url ? new URL(agent.public_url, window.location.origin).href : null;

  async function publish() {
    setPending(true);
    setError(null);
    try {
      const { data } = await api.POST('/v1/agents/{agent_id}/publish', { params: { path: { agent_id: agent.id } } });
      setPublication(data!);
      onChanged();
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card stack" aria-labelledby="agent-publish-title">
      <h2 id="agent-publish-title">{t('publicAccess')}</h2>
      <p className="muted">{agent.published_version !== null ? t('publishedAs', { version: agent.published_version }) : t('notPublishedYet')}</p>
      {url && (
        <div className="row publish-link">
          <PublicLink path={agent.public_url!} />
          <CopyButton text={url} label={t('copyLink')} copiedLabel={t('copied')} />
        </div>
      )}
      {url && publication && <EmbedCode embed={publication.embed} />}
      {url && !publication && canWrite && <p className="muted">{t('embedAfterPublish')}</p>}
      <ErrorNote error={error} />
      {canWrite && (
        <>
          <p className="muted">{t('publishHint')}</p>
          <div className="row">
            <Button className="react-aria-Button primary" isDisabled={pending} onPress={() => void publish()}>
              {t('publish')}
            </Button>
            {agent.status === 'published' && (
              <ConfirmButton
                label={t('unpublish')}
                confirmLabel={t('unpublish')}
                cancelLabel={t('cancel')}
                question={t('confirmUnpublish', { name: agent.name })}
                onConfirm={async () => {
                  await api.POST('/v1/agents/{agent_id}/unpublish', { params: { path: { agent_id: agent.id } } });
                  setPublication(null);
                  onChanged();
                }}
              />
            )}
          </div>
        </>
      )}
    </section>
  );
}

/** The snippet another site pastes: the chat bubble (script) or the page in a frame (iframe). */
function EmbedCode({ embed }: { embed: Publication['embed'] }) {
  const t = useAgentText();
  const [kind, setKind] = useState<'script' | 'iframe'>('script');
  const code = embed[kind];
  return (
    <div className="stack embed-code">
      <RadioGroup value={kind} onChange={(value) => setKind(value as 'script' | 'iframe')} orientation="horizontal">
        <Label id="agent-embed-title">{t('embedCode')}</Label>
        <Radio value="script">{t('embedScript')}</Radio>
        <Radio value="iframe">{t('embedIframe')}</Radio>
      </RadioGroup>
      <pre aria-labelledby="agent-embed-title" tabIndex={0}>
        <code>{code}</code>
      </pre>
      <div className="row">
        <CopyButton text={code} label={t('copyEmbed')} copiedLabel={t('copied')} />
      </div>
    </div>
  );
}
