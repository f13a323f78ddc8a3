import { Navigate, Outlet, useLocation } from 'react-router';
import { useSessionText } from './messages.ts';
import { useSession } from './session.tsx';

/** The console's screens need a session: without one, the sign-in, which comes back here after. */
export function RequireSession() {
  const { session } = useSession();
  const location = useLocation();
  const t = useSessionText();
  if (session === undefined) return <p aria-live="polite">{t('loading')}</p>;
  if (session === null) return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  return <Outlet />;
}
