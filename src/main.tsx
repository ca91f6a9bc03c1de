import './services/zodJitless';
import 'virtual:blueprint-public.css';
import './ui/app/studio.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { accounts } from './services/accounts';
import { detectLanguage, LANGUAGE_KEY, startI18n } from './services/i18n';
import { storedTheme } from './services/theme';
import { App } from './ui/app/App';
import { BootFailure } from './ui/app/BootFailure';
import { preloadRoute } from './ui/app/preload';
import { applyTheme } from './ui/app/theme';
import { installIconLoader } from './ui/icons';

installIconLoader();
applyTheme(storedTheme());

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const root = createRoot(container);

const languages = startI18n();
// Everything the first route needs (chunks, namespaces, first answers) starts now, beside the languages, so
// the first render has it all and shows no fallback; a slow part renders with the loading bar.
// Signed out, the sign-in page needs nothing of the route table.
const firstRoute = accounts.active()
  ? Promise.race([
      preloadRoute(`${window.location.pathname}${window.location.search}`),
      new Promise((resolve) => setTimeout(resolve, 1500)),
    ])
  : Promise.resolve();

languages
  .then(() => firstRoute)
  .then(
    () =>
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    () => {
      let stored: string | null = null;
      try {
        stored = localStorage.getItem(LANGUAGE_KEY);
      } catch {
        // Unreadable storage: use the browser's language.
      }
      root.render(<BootFailure language={detectLanguage(stored, navigator.languages)} />);
    },
  );
