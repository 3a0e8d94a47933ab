import { BrowserRouter } from 'react-router';
import { RouteErrorBoundary } from './layout/route-error-boundary';
import { AppProvider } from './provider';
import { ReplicaProvider } from './replica-provider';
import { AppRoutes } from './router';

export function App() {
  return (
    <AppProvider>
      <ReplicaProvider>
        <BrowserRouter>
          {/* The last resort, for errors in the layout itself; pages have their own (root layout). */}
          <RouteErrorBoundary>
            <AppRoutes />
          </RouteErrorBoundary>
        </BrowserRouter>
      </ReplicaProvider>
    </AppProvider>
  );
}
