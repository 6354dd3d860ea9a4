import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import type { CreatedApiKey, Session } from '../api/types.js';
import { API_SCOPES } from '../../../src/core/principal.js';
import { Badge, Empty, ErrorNote, Field, formatTime, Loading, Ltr, PageTitle, Section } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';

const PROVIDERS = ['openai', 'anthropic', 'openrouter', 'openai-compatible'] as const;
// core/principal.ts imports nothing, so the scope list itself comes into the bundle, not a copy of it.
const SCOPES = API_SCOPES;

/** Provider keys: entered once, sealed at rest, shown again only by their last 4 characters. */
function ProviderKeys() {
  const { t, language } = usePreferences();
  const queries = useQueryClient();
  const keys = useQuery({ queryKey: ['provider-keys'], queryFn: api.providerKeys });
  const [provider, setProvider] = useState<(typeof PROVIDERS)[number]>('openai');
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
      await queries.invalidateQueries({ queryKey: ['provider-keys'] });
    } catch (caught) {
      setError(caught);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      await api.setProviderKey(provider, key.trim());
      setKey('');
    });
  };
  return (
    <Section title={t('settings.providerKeys')}>
      {keys.isPending ? <Loading /> : null}
      <ul className="mb-3 flex flex-col gap-1 text-sm">
        {(keys.data?.provider_keys ?? []).map((each) => (
          <li key={each.provider} className="flex flex-wrap items-center gap-2" data-testid="provider-key">
            <span className="font-medium">{each.provider}</span>
            <Ltr className="font-mono">{t('settings.masked', { last4: each.last4 })}</Ltr>
            <span className="muted text-xs">{formatTime(each.updated_at, language)}</span>
            <button type="button" className="btn" onClick={() => void act(() => api.removeProviderKey(each.provider))}>
              {t('common.remove')}
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={submit} className="grid gap-x-4 sm:grid-cols-3">
        <Field label={t('settings.provider')}>
          {(id) => (
            <select id={id} className="input" value={provider} onChange={(event) => setProvider(event.target.value as typeof provider)}>
              {PROVIDERS.map((each) => (
                <option key={each} value={each}>
                  {each}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('settings.key')} hint={t('settings.keyHint')}>
          {(id) => <input id={id} className="input font-mono" dir="ltr" type="password" autoComplete="off" value={key} onChange={(event) => setKey(event.target.value)} required />}
        </Field>
        <div>
          <button type="submit" className="btn btn-primary">
            {t('common.save')}
          </button>
        </div>
      </form>
      <ErrorNote error={error ?? keys.error} />
    </Section>
  );
}

/** Service keys: made with scopes, shown once at creation, revocable. */
function ApiKeys() {
  const { t, language } = usePreferences();
  const queries = useQueryClient();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: api.apiKeys });
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['runs:read']);
  const [created, setCreated] = useState<CreatedApiKey | undefined>();
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      setCreated(await api.createApiKey({ name: name.trim(), scopes }));
      setName('');
      await queries.invalidateQueries({ queryKey: ['api-keys'] });
    } catch (caught) {
      setError(caught);
    }
  };
  const revoke = async (keyId: string) => {
    setError(null);
    try {
      await api.revokeApiKey(keyId);
      await queries.invalidateQueries({ queryKey: ['api-keys'] });
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <Section title={t('settings.apiKeys')}>
      {created === undefined ? null : (
        <div className="mb-3 rounded-md border-2 border-amber-500 bg-amber-50 p-3 dark:bg-amber-950" role="status" data-testid="new-api-key">
          <p className="mb-1 text-sm font-semibold text-amber-950 dark:text-amber-100">{t('settings.keyOnce')}</p>
          <code className="block break-all font-mono text-sm text-amber-950 dark:text-amber-100">{created.key}</code>
          <button type="button" className="btn mt-2" onClick={() => void navigator.clipboard?.writeText(created.key)}>
            {t('common.copy')}
          </button>
        </div>
      )}
      {keys.isPending ? <Loading /> : null}
      <ul className="mb-3 flex flex-col gap-2 text-sm">
        {(keys.data?.api_keys ?? []).map((key) => (
          <li key={key.key_id} className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{key.name}</span>
            <Ltr className="muted font-mono text-xs">{key.key_id}</Ltr>
            <Ltr className="muted text-xs">{key.scopes.join(' ')}</Ltr>
            <span className="muted text-xs">{formatTime(key.created_at, language)}</span>
            {key.revoked_at === null ? (
              <button type="button" className="btn" onClick={() => void revoke(key.key_id)}>
                {t('settings.revoke')}
              </button>
            ) : (
              <Badge tone="gray">{t('settings.revoked')}</Badge>
            )}
          </li>
        ))}
      </ul>
      <form onSubmit={(event) => void submit(event)}>
        <Field label={t('settings.newKey')}>{(id) => <input id={id} className="input" value={name} onChange={(event) => setName(event.target.value)} required />}</Field>
        <fieldset className="mb-3">
          <legend className="label">{t('settings.scopes')}</legend>
          <div className="grid grid-cols-1 gap-1 sm:grid-cols-3">
            {SCOPES.map((scope) => (
              <label key={scope} className="flex items-center gap-2 text-sm">
                <input type="checkbox" className="size-4" checked={scopes.includes(scope)} onChange={(event) => setScopes(event.target.checked ? [...scopes, scope] : scopes.filter((each) => each !== scope))} />
                <Ltr className="font-mono">{scope}</Ltr>
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" className="btn btn-primary" disabled={scopes.length === 0}>
          {t('settings.createKey')}
        </button>
      </form>
      <ErrorNote error={error ?? keys.error} />
    </Section>
  );
}

function Users() {
  const { t, language } = usePreferences();
  const users = useQuery({ queryKey: ['users'], queryFn: api.users });
  return (
    <Section title={t('settings.users')}>
      {users.isPending ? <Loading /> : null}
      <ErrorNote error={users.error} />
      <ul className="flex flex-col gap-1 text-sm">
        {(users.data?.users ?? []).map((user) => (
          <li key={user.user_id} className="flex flex-wrap items-center gap-2">
            <span className="break-all">{user.email}</span>
            <Badge tone={user.role === 'admin' ? 'violet' : 'gray'}>{user.role}</Badge>
            <span className="muted text-xs">{formatTime(user.created_at, language)}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** The models the server runs with are its configuration; what recent runs used shows them. */
function DefaultModels() {
  const { t } = usePreferences();
  const runs = useQuery({ queryKey: ['runs', 'models'], queryFn: () => api.runs({ limit: 50 }) });
  const models = [...new Set((runs.data?.runs ?? []).map((run) => run.model))];
  return (
    <Section title={t('settings.models')}>
      <p className="muted mb-2 text-sm">{t('settings.modelsHint')}</p>
      {runs.isPending ? <Loading /> : null}
      {models.length === 0 && !runs.isPending ? <Empty>{t('common.none')}</Empty> : null}
      <ul className="flex flex-wrap gap-2">
        {models.map((model) => (
          <li key={model}>
            <Badge tone="gray">
              <Ltr className="font-mono">{model}</Ltr>
            </Badge>
          </li>
        ))}
      </ul>
    </Section>
  );
}

export default function SettingsPage({ session }: { session: Session }) {
  const { t } = usePreferences();
  const accounts = session.auth === 'accounts' && session.via === 'session';
  return (
    <div>
      <PageTitle>{t('settings.title')}</PageTitle>
      {session.user === null ? <p className="muted mb-4">{t('settings.noAccounts')}</p> : <p className="mb-4">{t('settings.signedInAs', { email: session.user.email, role: session.user.role })}</p>}
      {accounts ? <ProviderKeys /> : null}
      <DefaultModels />
      {accounts ? <ApiKeys /> : null}
      {accounts && session.user?.role === 'admin' ? <Users /> : null}
    </div>
  );
}
