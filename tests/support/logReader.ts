import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import type { LogReader } from '#contract/logText';

const locales = join(import.meta.dirname, '../../locales');
const NAMESPACES = ['logs', 'profile', 'calls', 'documents', 'admin'];

/** A reader of logged events in one language, from the real locales/ files (unit tests). */
export function logReader(language: 'en-US' | 'tr'): LogReader {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries(
    NAMESPACES.map((ns) => [ns, JSON.parse(readFileSync(join(locales, language, `${ns}.json`), 'utf8'))]),
  );
  void instance.init({
    lng: language,
    resources: { [language]: resources },
    ns: NAMESPACES,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return { t: instance.t.bind(instance) as unknown as LogReader['t'], language };
}
