import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_DOC, configurationReference } from '../../scripts/configDoc';
import { loadConfig } from '../../server/config';
import {
  describeVariable,
  environmentSchema,
  parseEnvironment,
  SECTIONS,
  type VariableName,
} from '../../server/environment';

const names = Object.keys(environmentSchema.shape) as VariableName[];

describe('the configuration reference', () => {
  it('is what the schema of the environment generates (run `npm run docs:config` after changing it)', () => {
    expect(readFileSync(CONFIGURATION_DOC, 'utf8')).toBe(configurationReference());
  });

  it('gives every variable a section, a type and a meaning, and lists each once', () => {
    const document = configurationReference();
    for (const name of names) {
      const variable = describeVariable(name);
      expect(SECTIONS, name).toContain(variable.section);
      expect(variable.type, name).toMatch(/\S/);
      expect(variable.description, name).toMatch(/\S/);
      expect(document.split(`| \`${name}\` |`), name).toHaveLength(2);
    }
  });

  it('shows the defaults the server applies', () => {
    const unset = parseEnvironment({});
    // Defaults that are values (not words, not built from other variables) are checked against the parse.
    const plain = names.filter((name) => /^`[^`<]*`$/.test(describeVariable(name).default ?? ''));
    expect(plain.length).toBeGreaterThan(40);
    for (const name of plain) {
      const shown = (describeVariable(name).default ?? '').slice(1, -1);
      const value = unset[name];
      const applied = Array.isArray(value) ? value.join(',') : String(value);
      const expected = describeVariable(name).type === 'folder' ? resolve(shown) : shown;
      expect(applied, name).toBe(expected);
    }
  });
});

describe('a bad value', () => {
  const base = { DATA_DIR: '/tmp/idv-config-doc', JWT_SECRET: 'x'.repeat(40) };

  it('stops the start with a message naming each bad variable and its value', () => {
    expect(() => loadConfig({ ...base, UPLOADS_AT_ONCE: 'three', WEBHOOK_WORKER: 'maybe' })).toThrow(
      'UPLOADS_AT_ONCE must be a whole number above 0, got "three"; WEBHOOK_WORKER must be true or false, got "maybe"',
    );
    expect(() => loadConfig({ ...base, PUBLIC_URL: 'studio.example.com' })).toThrow(
      'PUBLIC_URL must be an http(s) address, got "studio.example.com"',
    );
    expect(() => loadConfig({ ...base, ICE_TRANSPORT_POLICY: 'direct' })).toThrow(
      'ICE_TRANSPORT_POLICY must be one of all, relay',
    );
  });

  it('of a secret is named but never echoed', () => {
    const secret = 'pk_live_do-not-print-me';
    const message = (() => {
      try {
        loadConfig({ ...base, STRIPE_SECRET_KEY: secret, STRIPE_WEBHOOK_SECRET: 'whsec_x' });
        return 'loaded';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toBe(
      'Configuration: STRIPE_SECRET_KEY must be a secret key (sk_live_…, sk_test_…) or a restricted key (rk_…)',
    );
    expect(message).not.toContain(secret);
  });

  it('counts as unset when empty', () => {
    expect(loadConfig({ ...base, PORT: '', MAIL_FROM: ' ', WEBHOOK_WORKER: '' })).toMatchObject({
      port: 8080,
      mailFrom: 'IDV Studio <no-reply@idv-studio.local>',
      webhooks: { worker: true },
    });
  });
});
