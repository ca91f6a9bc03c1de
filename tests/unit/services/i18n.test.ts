import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { detectLanguage, LANGUAGES, NAMESPACES, startI18n, switchLanguage } from '../../../src/services/i18n';

const localesDir = join(import.meta.dirname, '../../../locales');
const read = (language: string, namespace: string) =>
  JSON.parse(readFileSync(join(localesDir, language, `${namespace}.json`), 'utf8')) as Record<
    string,
    unknown
  >;

/** Every leaf key of a resource tree, dotted. */
function keys(tree: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? keys(value as Record<string, unknown>, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

/** Every leaf of a resource tree with its dotted key (keys may hold dots themselves: API paths such as `/metrics.csv`). */
function leaves(tree: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(tree).flatMap(([key, value]): [string, unknown][] =>
    typeof value === 'object' && value !== null
      ? leaves(value as Record<string, unknown>, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value]],
  );
}

const fromDisk = (language: string, namespace: string) => Promise.resolve(read(language, namespace));

/**
 * Texts of the customer's join page (customer.html), which bundles them itself, and the server's e-mail
 * templates (server/integrations/mailTemplates), which the studio never loads.
 */
const PAGE_NAMESPACES = ['customer', 'mail'];

describe('locales', () => {
  it('every language has exactly the namespaces the studio loads, and the join page’s', () => {
    for (const language of LANGUAGES) {
      const files = readdirSync(join(localesDir, language)).map((f) => f.replace(/\.json$/, ''));
      expect(files.sort()).toEqual([...NAMESPACES, ...PAGE_NAMESPACES].sort());
    }
  });

  it.each([...NAMESPACES, ...PAGE_NAMESPACES])(
    'namespace %s has the same keys in every language, none empty',
    (namespace) => {
      const [first, ...others] = LANGUAGES.map((language) => read(language, namespace));
      const expected = keys(first ?? {}).sort();
      for (const other of others) expect(keys(other).sort()).toEqual(expected);
      for (const language of LANGUAGES) {
        const tree = read(language, namespace);
        for (const [key, value] of leaves(tree)) {
          expect(
            typeof value === 'string' && value.trim().length > 0,
            `${language}/${namespace}:${key}`,
          ).toBe(true);
        }
      }
    },
  );

  it('keeps the English texts of the message catalogue exactly', () => {
    const common = read('en-US', 'common') as {
      messages: Record<string, string>;
      notAllowed: Record<string, string>;
    };
    expect(common.messages.error).toBe('An error occured');
    expect(common.messages.invalidCredentials).toBe('Invalid Credentials');
    expect(common.notAllowed.body).toBe('You are not allowed to visit this page.');
  });
});

describe('language detection', () => {
  it('prefers the stored choice', () => {
    expect(detectLanguage('tr', ['en-US'])).toBe('tr');
    expect(detectLanguage('en-US', ['tr-TR'])).toBe('en-US');
  });

  it('else takes Turkish for a Turkish browser and English otherwise', () => {
    expect(detectLanguage(null, ['tr-TR', 'en'])).toBe('tr');
    expect(detectLanguage(null, ['tr'])).toBe('tr');
    expect(detectLanguage(null, ['de-DE', 'tr'])).toBe('en-US');
    expect(detectLanguage(null, [])).toBe('en-US');
    expect(detectLanguage('fr', ['en-GB'])).toBe('en-US');
  });
});

describe('startI18n and switchLanguage', () => {
  it('loads the language on demand and translates', async () => {
    const instance = await startI18n({ instance: createInstance(), language: 'tr', load: fromDisk });
    expect(instance.t('notAllowed.body')).toBe('Bu sayfayı görüntüleme izniniz yok.');
    expect(instance.t('customers.title', { ns: 'screens' })).toBe('Müşteriler');
  });

  it('rejects when the language cannot be loaded, instead of showing raw keys', async () => {
    const failing = () => Promise.reject(new Error('chunk missing'));
    await expect(startI18n({ instance: createInstance(), language: 'en-US', load: failing })).rejects.toThrow(
      'chunk missing',
    );
  });

  it('a switch whose resources fail keeps the current language', async () => {
    const instance = await startI18n({ instance: createInstance(), language: 'en-US', load: fromDisk });
    await expect(switchLanguage('tr', instance, () => Promise.reject(new Error('offline')))).rejects.toThrow(
      'offline',
    );
    expect(instance.language).toBe('en-US');
    await switchLanguage('tr', instance, fromDisk);
    expect(instance.language).toBe('tr');
    expect(instance.t('messages.error')).toBe('Bir hata oluştu');
  });
});
