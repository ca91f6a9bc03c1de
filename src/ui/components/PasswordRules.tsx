import { Classes, Icon, Intent, ProgressBar } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { missingPasswordRules, PASSWORD_RULES, passwordStrength } from '#contract/passwords';
import './passwordRules.css';

const STRENGTH_INTENT = {
  weak: Intent.DANGER,
  average: Intent.WARNING,
  good: Intent.PRIMARY,
  strong: Intent.SUCCESS,
} as const;

/** The ids of the strength and the rule list for a form's `aria-describedby`. */
export const passwordRulesIds = (idPrefix: string) => `${idPrefix}-rules ${idPrefix}-strength`;

/**
 * The one password rule (contract/passwords.ts), shown the same way wherever a password is chosen
 * as the user types: its strength and each part of the rule, met or missing, as the password is typed.
 */
export function PasswordRules({ password, idPrefix }: { password: string; idPrefix: string }) {
  const { t } = useTranslation();
  const missing = missingPasswordRules(password);
  const strength = passwordStrength(password);
  const said = t('passwordRules.strength', {
    strength: t(`passwordRules.strengths.${password ? strength : 'weak'}`),
  });
  return (
    <>
      <div className="studio-password-strength" id={`${idPrefix}-strength`}>
        <ProgressBar
          aria-label={said}
          value={password ? (['weak', 'average', 'good', 'strong'].indexOf(strength) + 1) / 4 : 0}
          intent={STRENGTH_INTENT[strength]}
          animate={false}
          stripes={false}
        />
        <span role="status">{said}</span>
      </div>
      <div id={`${idPrefix}-rules`} className="studio-password-rules">
        <span className={Classes.TEXT_MUTED}>{t('passwordRules.title')}</span>
        <ul>
          {PASSWORD_RULES.map((rule) => {
            const met = !missing.includes(rule);
            return (
              <li key={rule} className={met ? 'is-met' : undefined}>
                <Icon
                  icon={met ? 'small-tick' : 'small-cross'}
                  intent={met ? Intent.SUCCESS : Intent.NONE}
                  title={met ? t('passwordRules.met') : t('passwordRules.missing')}
                />
                {t(`passwordRules.rules.${rule}`)}
              </li>
            );
          })}
        </ul>
      </div>
    </>
  );
}
