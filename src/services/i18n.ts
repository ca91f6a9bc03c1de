/**
 * Interface languages (docs/product/README.md): en-US and tr, resources in locales/<lng>/<namespace>.json, each loaded on demand
 * as its own chunk. The language is the stored choice, else the browser's (Turkish if Turkish, else English).
 */
import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ChunkLoadError, loadChunk } from './chunks';
import { NAMESPACES, type Namespace, START_NAMESPACES } from './namespaces';

export { NAMESPACES, type Namespace, START_NAMESPACES };

export const LANGUAGES = ['en-US', 'tr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_NAMESPACE = 'common';
export const LANGUAGE_KEY = 'language';

const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

/** The stored choice, else the browser's language: Turkish if Turkish, otherwise English. */
export function detectLanguage(stored: string | null, browserLanguages: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  const first = browserLanguages[0] ?? '';
  return first.toLowerCase().startsWith('tr') ? 'tr' : 'en-US';
}

function storedLanguage(): string | null {
  try {
    return globalThis.localStorage?.getItem(LANGUAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

export function storeLanguage(language: Language): void {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_KEY, language);
  } catch {
    // Not remembered; the switch still applies to this tab.
  }
}

type Resources = Record<string, unknown>;
type ResourceLoader = (language: string, namespace: string) => Promise<Resources>;

/** Each JSON file of locales/ becomes its own chunk. */
// The customer's join page (customer.html) bundles its own texts (customer.json), and the server renders the
// e-mail templates (mail.json): neither is the studio's.
// Keys relative to locales/ (`en-US/common.json`): the map sits in the first load, so short keys count.
const files = import.meta.glob<Resources>(['./*/*.json', '!./*/customer.json', '!./*/mail.json'], {
  import: 'default',
  base: '../../locales',
});

export const loadResources: ResourceLoader = (language, namespace) => {
  const load = files[`./${language}/${namespace}.json`];
  if (!load) return Promise.reject(new Error(`No resources for ${language}/${namespace}`));
  return loadChunk(load);
};

function chunkBackend(load: ResourceLoader): BackendModule {
  return {
    type: 'backend',
    init() {},
    read(language, namespace, callback) {
      load(language, namespace).then(
        (resources) => callback(null, resources),
        (error: Error) => callback(error, false),
      );
    },
  };
}

/**
 * Starts i18next for the studio. Rejects (with the ChunkLoadError) when the language cannot be loaded, so
 * the caller can show the failure instead of raw keys.
 */
export async function startI18n(
  options: { language?: Language; load?: ResourceLoader; instance?: I18n } = {},
): Promise<I18n> {
  const instance = options.instance ?? i18next;
  const language =
    options.language ?? detectLanguage(storedLanguage(), globalThis.navigator?.languages ?? []);
  let failure: Error | null = null;
  const load: ResourceLoader = (lng, ns) =>
    (options.load ?? loadResources)(lng, ns).catch((error: Error) => {
      failure = error;
      throw error;
    });
  await instance
    .use(chunkBackend(load))
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: false,
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      ns: [...START_NAMESPACES],
      defaultNS: DEFAULT_NAMESPACE,
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    });
  if (failure) throw failure;
  applyDocumentLanguage(instance.language);
  instance.on('languageChanged', applyDocumentLanguage);
  return instance;
}

function applyDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/**
 * Switches the language and stores the choice. Its resources are loaded first: when they cannot be, the
 * ChunkLoadError is thrown and the current language stays (no raw keys on screen).
 */
export async function switchLanguage(
  language: Language,
  instance: I18n = i18next,
  load: ResourceLoader = loadResources,
): Promise<void> {
  const bundles = await Promise.all(NAMESPACES.map((namespace) => load(language, namespace)));
  NAMESPACES.forEach((namespace, i) => {
    instance.addResourceBundle(language, namespace, bundles[i], true, true);
  });
  await instance.changeLanguage(language);
  storeLanguage(language);
}

/**
 * Loads namespaces of the current language before a screen that needs them renders; a namespace that
 * cannot be loaded fails with ChunkLoadError (so the screen shows Reload, never raw keys).
 */
export async function loadNamespaces(
  namespaces: readonly Namespace[],
  instance: I18n = i18next,
): Promise<void> {
  if (namespaces.length === 0) return;
  await instance.loadNamespaces([...namespaces]);
  const missing = namespaces.filter((namespace) => !instance.hasResourceBundle(instance.language, namespace));
  if (missing.length) {
    throw new ChunkLoadError('CHUNK_LOAD_FAILED', `Texts not loaded: ${missing.join(', ')}`);
  }
}

/**
 * The only texts the studio holds outside locales/: shown when the language itself could not be loaded.
 */
export const BOOT_FAILURE_TEXT: Record<Language, { title: string; body: string; reload: string }> = {
  'en-US': {
    title: 'The studio could not be loaded',
    body: 'A part of the application did not arrive. Check the connection and reload the page.',
    reload: 'Reload',
  },
  tr: {
    title: 'Stüdyo yüklenemedi',
    body: 'Uygulamanın bir parçası alınamadı. Bağlantıyı kontrol edip sayfayı yeniden yükleyin.',
    reload: 'Yeniden yükle',
  },
};
