import { Suspense } from 'react';
import { Button } from 'react-aria-components';
import { NavLink, Outlet } from 'react-router';
import { useSessionText } from '../session/messages.ts';
import { useCan, useSession } from '../session/session.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { useShellText } from './messages.ts';

/** Each capability's screen, by the name the navigation shows (shell/messages.ts). */
const NAV = [
  ['/knowledge-bases', 'knowledgeBases'],
  ['/chat', 'chat'],
  ['/workflows', 'workflows'],
  ['/agents', 'agents'],
  ['/models', 'models'],
  ['/api-keys', 'apiKeys'],
] as const;

/** The signed-in console: header, navigation, the screen. */
export function Layout() {
  const t = useShellText();
  const s = useSessionText();
  const { session, signOut } = useSession();
  const canWrite = useCan('write');
  return (
    <div className="layout">
      <a className="skip-link" href="#content">
        {t('skipToContent')}
      </a>
      <header className="topbar">
        <span className="brand">{t('product')}</span>
        <nav aria-label={t('navigation')}>
          <ul>
            {NAV.map(([to, name]) => (
              <li key={to}>
                <NavLink to={to}>{t(name)}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="topbar-end">
          {session && <span className="who">{s('signedInAs', { workspace: session.workspace_id, scopes: session.scopes.join(', ') })}</span>}
          <LanguageSwitch />
          <Button onPress={() => void signOut()}>{s('signOut')}</Button>
        </div>
      </header>
      {!canWrite && (
        <p className="read-only-banner" role="note">
          {s('readOnly')}
        </p>
      )}
      <main id="content" tabIndex={-1}>
        <Suspense fallback={<p aria-live="polite">{t('loadingScreen')}</p>}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
