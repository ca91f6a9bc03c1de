/**
 * Profile-log sentences in English on the server (the `message` of GET /profile/{id}/logs, kept for API
 * clients, and the summariser's facts). The same texts and wording as the studio's: locales/en-US through
 * the shared describer of contract/logText.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { describeProfileLog, type LogReader } from '#contract/logText';

const LANGUAGE = 'en-US';
const NAMESPACES = ['logs', 'profile', 'calls', 'documents'];
const locales = join(dirname(fileURLToPath(import.meta.url)), '../../locales', LANGUAGE);

function englishReader(): LogReader {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries(
    NAMESPACES.map((ns) => [ns, JSON.parse(readFileSync(join(locales, `${ns}.json`), 'utf8'))]),
  );
  void instance.init({
    lng: LANGUAGE,
    resources: { [LANGUAGE]: resources },
    ns: NAMESPACES,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return { t: instance.t.bind(instance) as unknown as LogReader['t'], language: LANGUAGE };
}

let reader: LogReader | null = null;

/** The English sentence of one profile-log entry. */
export function englishLogMessage(code: string, data: Record<string, unknown>): string {
  reader ??= englishReader();
  return describeProfileLog(reader, code, data);
}
