import {
  Button,
  Callout,
  Card,
  Checkbox,
  Code,
  FormGroup,
  H4,
  H5,
  HTMLSelect,
  InputGroup,
  Intent,
  Spinner,
  Switch,
} from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ROLES, type Role } from '#contract/constants';
import type { SsoConfig, SsoConfigBody, SsoMapping } from '#contract/sso';
import { listGroups } from '../../../services/api/admin';
import { isApiError } from '../../../services/api/http';
import {
  getSsoConfig,
  rotateScimToken,
  setSsoConfig,
  ssoKeys,
  testSsoConnection,
} from '../../../services/api/sso';
import { listUsers } from '../../../services/api/users';
import { useActiveAccount } from '../../app/useAccounts';
import { showError, showSuccess } from '../../toaster';
import { useRoleLabel } from '../admin/roles';
import './sso.css';

interface Draft {
  enabled: boolean;
  issuer: string;
  client_id: string;
  client_secret: string;
  domains: string;
  groups_claim: string;
  default_role: Role;
  mappings: SsoMapping[];
  sso_only: boolean;
  break_glass_user_ids: number[];
}

const draftOf = (config: SsoConfig): Draft => ({
  enabled: config.enabled,
  issuer: config.issuer,
  client_id: config.client_id,
  client_secret: '',
  domains: config.domains.join(', '),
  groups_claim: config.groups_claim,
  default_role: config.default_role,
  mappings: config.mappings,
  sso_only: config.sso_only,
  break_glass_user_ids: config.break_glass_user_ids,
});

const bodyOf = (draft: Draft): SsoConfigBody => ({
  enabled: draft.enabled,
  issuer: draft.issuer.trim(),
  client_id: draft.client_id.trim(),
  ...(draft.client_secret ? { client_secret: draft.client_secret } : {}),
  domains: draft.domains
    .split(/[,\s]+/)
    .map((d) => d.trim())
    .filter(Boolean),
  groups_claim: draft.groups_claim.trim() || 'groups',
  default_role: draft.default_role,
  mappings: draft.mappings.filter((m) => m.claim.trim() !== ''),
  sso_only: draft.sso_only,
  break_glass_user_ids: draft.break_glass_user_ids,
});

/**
 * Company settings › Sign-in, for Admins: the company's OpenID Connect provider (the secret is typed, stored
 * sealed and never shown again), the domains it covers, how its groups map to roles and studio groups, SSO only
 * with its break-glass Admins, the connection test, and the SCIM token (shown once when created).
 */
export function SsoSettingsCard() {
  const { t } = useTranslation('admin');
  const { t: tc } = useTranslation();
  const roleLabel = useRoleLabel();
  const account = useActiveAccount();
  const queryClient = useQueryClient();
  const key = [...ssoKeys.settings, account?.server ?? '', account?.company_id ?? 0];
  const settings = useQuery({ queryKey: key, queryFn: ({ signal }) => getSsoConfig({ signal }) });
  const groups = useQuery({ queryKey: ['groups', ...key], queryFn: ({ signal }) => listGroups({ signal }) });
  const admins = useQuery({
    queryKey: ['sso-admins', ...key],
    queryFn: ({ signal }) => listUsers({ role: 'Admin', is_active: 'true', limit: 100 }, { signal }),
  });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [scimToken, setScimToken] = useState<string | null>(null);
  const fail = (error: unknown) => void showError(isApiError(error) ? error.detail : tc('messages.error'));
  const save = useMutation({
    mutationFn: (body: SsoConfigBody) => setSsoConfig(body),
    onSuccess: (answer) => {
      queryClient.setQueryData(key, answer);
      setDraft(null);
      void showSuccess(t('ssoSettings.saved'));
    },
    onError: fail,
  });
  const test = useMutation({
    mutationFn: (issuer: string) => testSsoConnection(issuer || undefined),
    onError: fail,
  });
  const rotate = useMutation({
    mutationFn: rotateScimToken,
    onSuccess: ({ token }) => {
      setScimToken(token);
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: fail,
  });

  const current = settings.data;
  const form = draft ?? (current ? draftOf(current) : null);
  const change = (patch: Partial<Draft>) => form && setDraft({ ...form, ...patch });
  const setMapping = (index: number, patch: Partial<SsoMapping>) =>
    form && change({ mappings: form.mappings.map((m, i) => (i === index ? { ...m, ...patch } : m)) });
  const report = test.data;

  return (
    <Card className="studio-settings-card" data-testid="sso-settings">
      <H4>{t('ssoSettings.title')}</H4>
      <p>{t('ssoSettings.body')}</p>
      {settings.isPending && <Spinner size={24} aria-label={t('ssoSettings.title')} />}
      {settings.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {t('ssoSettings.loadFailed')}
        </Callout>
      )}
      {current && form && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(bodyOf(form));
          }}
        >
          <FormGroup label={t('ssoSettings.redirectUri')}>
            <Code>{current.redirect_uri}</Code>
          </FormGroup>
          <Switch
            label={t('ssoSettings.enabled')}
            checked={form.enabled}
            onChange={(e) => change({ enabled: e.currentTarget.checked })}
          />
          <FormGroup label={t('ssoSettings.issuer')} labelFor="sso-issuer">
            <InputGroup
              id="sso-issuer"
              type="url"
              value={form.issuer}
              onValueChange={(issuer) => change({ issuer })}
            />
          </FormGroup>
          <FormGroup label={t('ssoSettings.clientId')} labelFor="sso-client-id">
            <InputGroup
              id="sso-client-id"
              value={form.client_id}
              onValueChange={(v) => change({ client_id: v })}
            />
          </FormGroup>
          <FormGroup
            label={t('ssoSettings.clientSecret')}
            labelFor="sso-client-secret"
            helperText={current.client_secret_set ? t('ssoSettings.secretStored') : undefined}
          >
            <InputGroup
              id="sso-client-secret"
              type="password"
              autoComplete="new-password"
              value={form.client_secret}
              onValueChange={(v) => change({ client_secret: v })}
            />
          </FormGroup>
          <FormGroup
            label={t('ssoSettings.domains')}
            labelFor="sso-domains"
            helperText={t('ssoSettings.domainsHelp')}
          >
            <InputGroup id="sso-domains" value={form.domains} onValueChange={(v) => change({ domains: v })} />
          </FormGroup>
          <FormGroup label={t('ssoSettings.groupsClaim')} labelFor="sso-groups-claim">
            <InputGroup
              id="sso-groups-claim"
              value={form.groups_claim}
              onValueChange={(v) => change({ groups_claim: v })}
            />
          </FormGroup>
          <FormGroup label={t('ssoSettings.defaultRole')} labelFor="sso-default-role">
            <HTMLSelect
              id="sso-default-role"
              value={form.default_role}
              options={ROLES.map((r) => ({ value: r, label: roleLabel(r) }))}
              onChange={(e) => change({ default_role: e.currentTarget.value as Role })}
            />
          </FormGroup>
          <H5>{t('ssoSettings.mappings')}</H5>
          {form.mappings.map((mapping, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id until saved, and are edited in place
            <div className="studio-sso-mapping" key={index}>
              <InputGroup
                aria-label={t('ssoSettings.mappingClaim')}
                placeholder={t('ssoSettings.mappingClaim')}
                value={mapping.claim}
                onValueChange={(claim) => setMapping(index, { claim })}
              />
              <HTMLSelect
                aria-label={t('ssoSettings.mappingRole')}
                value={mapping.role ?? ''}
                options={[
                  { value: '', label: t('ssoSettings.none') },
                  ...ROLES.map((r) => ({ value: r, label: roleLabel(r) })),
                ]}
                onChange={(e) => setMapping(index, { role: (e.currentTarget.value || null) as Role | null })}
              />
              <HTMLSelect
                aria-label={t('ssoSettings.mappingGroup')}
                value={mapping.group_id ?? ''}
                options={[
                  { value: '', label: t('ssoSettings.none') },
                  ...(groups.data ?? []).map((g) => ({ value: g.id, label: g.name })),
                ]}
                onChange={(e) =>
                  setMapping(index, {
                    group_id: e.currentTarget.value ? Number(e.currentTarget.value) : null,
                  })
                }
              />
              <Button
                icon="trash"
                variant="minimal"
                aria-label={t('ssoSettings.removeMapping')}
                onClick={() => change({ mappings: form.mappings.filter((_, i) => i !== index) })}
              />
            </div>
          ))}
          <Button
            className="studio-sso-add"
            icon="add"
            text={t('ssoSettings.addMapping')}
            onClick={() =>
              change({ mappings: [...form.mappings, { claim: '', role: null, group_id: null }] })
            }
          />
          <Switch
            label={t('ssoSettings.ssoOnly')}
            checked={form.sso_only}
            onChange={(e) => change({ sso_only: e.currentTarget.checked })}
          />
          <FormGroup label={t('ssoSettings.breakGlass')}>
            {(admins.data?.results ?? []).map((admin) => (
              <Checkbox
                key={admin.id}
                label={admin.username}
                checked={form.break_glass_user_ids.includes(admin.id)}
                onChange={(e) =>
                  change({
                    break_glass_user_ids: e.currentTarget.checked
                      ? [...form.break_glass_user_ids, admin.id]
                      : form.break_glass_user_ids.filter((id) => id !== admin.id),
                  })
                }
              />
            ))}
          </FormGroup>
          <div className="studio-sso-actions">
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              text={t('ssoSettings.save')}
              loading={save.isPending}
            />
            <Button
              text={t('ssoSettings.test')}
              loading={test.isPending}
              onClick={() => test.mutate(form.issuer)}
            />
          </div>
          {report && (
            <Callout
              intent={report.ok ? Intent.SUCCESS : Intent.WARNING}
              title={report.ok ? t('ssoSettings.testOk') : t('ssoSettings.testFailed')}
              role="status"
            >
              {report.problem ??
                t('ssoSettings.endpoints', {
                  authorization: report.authorization_endpoint ?? '—',
                  token: report.token_endpoint ?? '—',
                  keys: report.keys,
                })}
            </Callout>
          )}
        </form>
      )}
      {current && (
        <>
          <H5>{t('ssoSettings.scimTitle')}</H5>
          <p>{t('ssoSettings.scimBody')}</p>
          <FormGroup label={t('ssoSettings.scimBaseUrl')}>
            <Code>{current.scim_base_url}</Code>
          </FormGroup>
          <p>{current.scim_token_set ? t('ssoSettings.scimTokenSet') : t('ssoSettings.scimNoToken')}</p>
          {scimToken && (
            <Callout intent={Intent.WARNING} icon="key" role="status">
              <p>{t('ssoSettings.scimTokenOnce')}</p>
              <Code data-testid="scim-token">{scimToken}</Code>
            </Callout>
          )}
          <Button
            icon="refresh"
            text={t('ssoSettings.scimRotate')}
            loading={rotate.isPending}
            onClick={() => rotate.mutate()}
          />
        </>
      )}
    </Card>
  );
}
