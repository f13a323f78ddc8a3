import { useRouteError } from 'react-router';
import { useShellText } from './messages.ts';

/** A screen that threw while rendering or loading: said in words, with the rest of the console still there. */
export function ScreenError() {
  const t = useShellText();
  const error = useRouteError();
  return (
    <p role="alert" className="error-note">
      {t('screenFailed', { message: error instanceof Error ? error.message : String(error) })}
    </p>
  );
}

export function NotFound() {
  const t = useShellText();
  return <p>{t('notFound')}</p>;
}
