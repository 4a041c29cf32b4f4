import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryCache, QueryClient, QueryClientProvider, MutationCache } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { App, preloadPage } from './App';
import { ApiError } from './api/client';
import { prefsQuery } from './prefs';
import { recipeQuery, statsQuery } from './recipes/queries';
import './styles.css';
import { keys } from './api/keys';

function onError(e: unknown) {
  // A session that ended elsewhere (signed out, revoked): back to sign-in. A wrong current
  // password (change-password's 401 "Invalid password") is not that.
  if (e instanceof ApiError && e.status === 401 && e.message === 'Unauthorized') queryClient.setQueryData(keys.auth.session(), null);
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      retry: (n, e) => !(e instanceof ApiError && e.status >= 400 && e.status < 500) && n < 2,
      refetchOnWindowFocus: false,
      staleTime: 5_000,
    },
  },
});

// The service worker keeps the app and the open brew session usable offline (src/offline/sw.js).
// Only in a build: the dev server serves sources that change under it.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener('load', () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined));
}

preloadPage(window.location.pathname);
// The recipe page's data starts loading beside the session check and the page's code.
const recipeId = /^\/recipes\/([0-9a-fA-F-]{36})$/.exec(window.location.pathname)?.[1];
if (recipeId) {
  void queryClient.prefetchQuery(recipeQuery(recipeId));
  void queryClient.prefetchQuery(statsQuery(recipeId));
  void queryClient.prefetchQuery(prefsQuery);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
