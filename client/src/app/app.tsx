import type { ComponentType, ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { RouteErrorBoundary } from './layout/route-error-boundary';
import { AppProvider } from './provider';
import { ReplicaProvider } from './replica-provider';
import { AppRoutes } from './router';

/**
 * The whole app. `Router` is the browser's history in the browser; the build's prerendering of
 * the home page (client/src/prerender) gives a static one, so that both draw the same tree.
 */
export function App({ Router = BrowserRouter }: { Router?: ComponentType<{ children: ReactNode }> }) {
  return (
    <AppProvider>
      <ReplicaProvider>
        <Router>
          {/* The last resort, for errors in the layout itself; pages have their own (root layout). */}
          <RouteErrorBoundary>
            <AppRoutes />
          </RouteErrorBoundary>
        </Router>
      </ReplicaProvider>
    </AppProvider>
  );
}
