/**
 * The one password rule (docs/product/validation.md#passwords: the create-account rule, the strongest). The server
 * checks it wherever a password is chosen (sign-up, reset and invitation, change in settings) and the studio
 * shows it the same way on each of those forms.
 */

/** The parts of the rule, in the order they are shown: 8 or more characters, upper, lower, a symbol. */
export const PASSWORD_RULES = ['length', 'upper', 'lower', 'symbol'] as const;
export type PasswordRule = (typeof PASSWORD_RULES)[number];

export const PASSWORD_MIN = 8;

const ruleHolds: Record<PasswordRule, (password: string) => boolean> = {
  length: (p) => [...p].length >= PASSWORD_MIN,
  upper: (p) => /\p{Lu}/u.test(p),
  lower: (p) => /\p{Ll}/u.test(p),
  // Anything that is neither a letter, a digit nor white space counts as a symbol.
  symbol: (p) => /[^\p{L}\p{N}\s]/u.test(p),
};

/** The parts of the rule the password does not meet yet, in the rule's order. */
export function missingPasswordRules(password: string): PasswordRule[] {
  return PASSWORD_RULES.filter((rule) => !ruleHolds[rule](password));
}

export const isAcceptablePassword = (password: string) => missingPasswordRules(password).length === 0;

/** What the server answers (400) for a new password that breaks the rule. */
export const PASSWORD_RULE_DETAIL =
  'The password needs 8 or more characters with an upper-case letter, a lower-case letter and a symbol';

export const PASSWORD_STRENGTHS = ['weak', 'average', 'good', 'strong'] as const;
export type PasswordStrength = (typeof PASSWORD_STRENGTHS)[number];

/**
 * The strength: Weak / Average / Good / Strong. Weak until the rule is met; then Average, Good with 12 or more
 * characters or a digit and a second symbol, Strong with 12 or more characters, a digit and two symbols (or 16
 * or more characters with a digit).
 */
export function passwordStrength(password: string): PasswordStrength {
  if (!isAcceptablePassword(password)) return 'weak';
  const length = [...password].length;
  const digit = /\p{N}/u.test(password);
  const symbols = password.match(/[^\p{L}\p{N}\s]/gu)?.length ?? 0;
  let points = 0;
  if (length >= 12) points += 1;
  if (length >= 16) points += 1;
  if (digit) points += 1;
  if (symbols >= 2) points += 1;
  if (points >= 3) return 'strong';
  if (points >= 1) return 'good';
  return 'average';
}
