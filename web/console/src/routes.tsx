import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { RequireSession } from './session/RequireSession.tsx';
import SignIn from './session/SignIn.tsx';
import { Layout } from './shell/Layout.tsx';
import { NotFound, ScreenError } from './shell/ScreenError.tsx';

/** A screen loaded when first visited: the sign-in page's script carries none of the others. */
const screen = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/**
 * Every screen of the console, by capability (web/console/src/capabilities/<name>/, named as in
 * src/capabilities/<name>.ts). Paths are the console's own; the API's stay under /v1.
 */
export const routes: RouteObject[] = [
  { path: '/sign-in', Component: SignIn },
  {
    element: <RequireSession />,
    errorElement: <ScreenError />,
    // Shown while a deep link's screen loads on the first visit.
    hydrateFallbackElement: <p aria-live="polite">…</p>,
    children: [
      {
        Component: Layout,
        children: [
          { index: true, element: <Navigate to="/knowledge-bases" replace /> },
          { path: 'knowledge-bases', ...screen(() => import('./capabilities/knowledge-bases/KnowledgeBaseList.tsx')) },
          {
            path: 'knowledge-bases/:kbId',
            ...screen(() => import('./capabilities/knowledge-bases/KnowledgeBaseLayout.tsx')),
            children: [
              { index: true, ...screen(() => import('./capabilities/documents/DocumentList.tsx')) },
              { path: 'documents/:documentId', ...screen(() => import('./capabilities/documents/DocumentDetail.tsx')) },
              { path: 'retrieval', ...screen(() => import('./capabilities/search/RetrievalTesting.tsx')) },
              { path: 'settings', ...screen(() => import('./capabilities/knowledge-bases/KnowledgeBaseSettings.tsx')) },
            ],
          },
          { path: 'chat', ...screen(() => import('./capabilities/chat/ChatPlayground.tsx')) },
          { path: 'workflows', ...screen(() => import('./capabilities/workflows/WorkflowList.tsx')) },
          { path: 'workflows/:id', ...screen(() => import('./capabilities/workflows/WorkflowCanvas.tsx')) },
          { path: 'agents', ...screen(() => import('./capabilities/agents/AgentList.tsx')) },
          { path: 'agents/:agentId', ...screen(() => import('./capabilities/agents/AgentEditor.tsx')) },
          { path: 'models', ...screen(() => import('./capabilities/model-providers/ModelsScreen.tsx')) },
          { path: 'api-keys', ...screen(() => import('./capabilities/api-keys/ApiKeyList.tsx')) },
          { path: '*', Component: NotFound },
        ],
      },
    ],
  },
];
