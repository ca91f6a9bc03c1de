/** One password rule, defined once in the contract, checked alike by the studio and the server. */
import { describe, expect, it } from 'vitest';
import { isAcceptablePassword, missingPasswordRules, PASSWORD_RULE_DETAIL } from '#contract/passwords';
import enCommon from '../../locales/en-US/common.json';
import trCommon from '../../locales/tr/common.json';
import { checkPassword } from '../../src/machines/validation';

describe('the one password rule (the create-account rule)', () => {
  it.each([
    ['Abc123', false, ['length', 'symbol']],
    ['abcdefg1', false, ['upper', 'symbol']],
    ['ABCDEFG!', false, ['lower']],
    ['Abcdefgh', false, ['symbol']],
    ['Abcdefg!', true, []],
    ['Şifre@2026', true, []],
    ['Invited@2026', true, []],
  ])('%s: acceptable %s, missing %j', (password, ok, missing) => {
    expect(isAcceptablePassword(password)).toBe(ok);
    expect(missingPasswordRules(password)).toEqual(missing);
    // The studio's form check is the same rule.
    expect(checkPassword(password)).toBe(ok ? null : 'password');
  });

  it('is stated with the same words in the studio as in the server answer, in both languages', () => {
    expect(enCommon.validation.password).toBe(`${PASSWORD_RULE_DETAIL}.`);
    expect(enCommon.passwordRules.rules.length).toBe('8 or more characters');
    expect(trCommon.validation.password).toBe(
      'Şifre en az 8 karakter olmalı; bir büyük harf, bir küçük harf ve bir sembol içermelidir.',
    );
    expect(Object.keys(trCommon.passwordRules.rules)).toEqual(Object.keys(enCommon.passwordRules.rules));
  });
});
