import { type FormEvent, useState } from 'react';
import { Button, FieldError, Form, Input, Label, Text, TextField } from 'react-aria-components';
import { Navigate, useLocation } from 'react-router';
import { LanguageSwitch } from '../shell/LanguageSwitch.tsx';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useSessionText } from './messages.ts';
import { useSession } from './session.tsx';

/** The sign-in screen: an API key in, a session cookie out (POST /console/session). */
export default function SignIn() {
  const t = useSessionText();
  const { session, signIn } = useSession();
  const location = useLocation();
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const next = (location.state as { from?: string } | null)?.from ?? '/knowledge-bases';
  if (session) return <Navigate to={next} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await signIn(apiKey.trim());
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  }

  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <h1>{t('title')}</h1>
        <p>{t('intro')}</p>
        <Form onSubmit={submit}>
          <TextField name="api_key" type="password" isRequired autoFocus value={apiKey} onChange={setApiKey} autoComplete="off">
            <Label>{t('apiKey')}</Label>
            <Input spellCheck={false} />
            <Text slot="description">{t('apiKeyHint')}</Text>
            <FieldError />
          </TextField>
          <ErrorNote error={error} />
          {/* isDisabled, not isPending: a pending button leaves a nameless progress element behind for seconds once it is gone (axe: role-img-alt). */}
          <Button type="submit" className="react-aria-Button primary" isDisabled={pending}>
            {pending ? t('signingIn') : t('signIn')}
          </Button>
        </Form>
        <LanguageSwitch />
      </div>
    </main>
  );
}
