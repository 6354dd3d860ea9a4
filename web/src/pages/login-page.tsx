import { useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import { ErrorNote, Field } from '../components/ui.js';
import { usePreferences, type Language } from '../i18n/preferences.js';

function LanguageToggle() {
  const { language, setLanguage, t } = usePreferences();
  return (
    <div className="mb-4 flex justify-end">
      <label className="sr-only" htmlFor="login-language">
        {t('prefs.language')}
      </label>
      <select id="login-language" className="input w-auto py-1" value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
        <option value="en">English</option>
        <option value="ar">العربية</option>
      </select>
    </div>
  );
}

function SignInForm({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const { t } = usePreferences();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.login(email.trim(), password);
      await onSignedIn();
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} aria-label={t('auth.title')}>
      <Field label={t('auth.email')}>{(id) => <input id={id} className="input" type="email" autoComplete="username" value={email} onChange={(event) => setEmail(event.target.value)} required />}</Field>
      <Field label={t('auth.password')}>
        {(id) => <input id={id} className="input" type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} required />}
      </Field>
      <button type="submit" className="btn btn-primary w-full" disabled={busy}>
        {t('auth.signIn')}
      </button>
      {error === null ? null : <ErrorNote error={error} />}
    </form>
  );
}

export function LoginPage({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const { t } = usePreferences();
  return (
    <main id="main" className="mx-auto mt-10 max-w-sm p-4">
      <LanguageToggle />
      <div className="card">
        <h1 className="mb-4 text-2xl font-semibold">{t('auth.title')}</h1>
        <SignInForm onSignedIn={onSignedIn} />
      </div>
    </main>
  );
}

export function SessionExpiredPage({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const { t } = usePreferences();
  return (
    <main id="main" className="mx-auto mt-10 max-w-sm p-4">
      <LanguageToggle />
      <div className="card">
        <h1 className="mb-2 text-2xl font-semibold">{t('auth.expired.title')}</h1>
        <p className="muted mb-4">{t('auth.expired.body')}</p>
        <SignInForm onSignedIn={onSignedIn} />
      </div>
    </main>
  );
}
