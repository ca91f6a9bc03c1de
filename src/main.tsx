import 'virtual:blueprint-public.css';
import './ui/app/studio.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { detectLanguage, LANGUAGE_KEY, startI18n } from './services/i18n';
import { storedTheme } from './services/theme';
import { App } from './ui/app/App';
import { BootFailure } from './ui/app/BootFailure';
import { applyTheme } from './ui/app/theme';
import { installIconLoader } from './ui/icons';

installIconLoader();
applyTheme(storedTheme());

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const root = createRoot(container);

startI18n().then(
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
