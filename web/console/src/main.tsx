import './trusted-types.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { createBrowserRouter, RouterProvider } from 'react-router';
import './i18n/index.ts';
import { routes } from './routes.tsx';
import { SessionProvider } from './session/session.tsx';
import './styles/base.css';

const router = createBrowserRouter(routes);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* React Aria's links (in menus, tables) navigate through the router, not by reloading the page. */}
    <AriaRouterProvider navigate={(to) => void router.navigate(to)}>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </AriaRouterProvider>
  </StrictMode>,
);
