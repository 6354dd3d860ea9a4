import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { api, refreshSession, whenSessionLost } from './api/client.js';
import type { Session } from './api/types.js';
import { ErrorNote, Loading } from './components/ui.js';
import type { MessageKey } from './i18n/messages.js';
import { usePreferences, type Language, type ThemeChoice } from './i18n/preferences.js';
import { ChatPage } from './pages/chat-page.js';
import { LoginPage, SessionExpiredPage } from './pages/login-page.js';
import { Link, matchPath, navigate, useLocation } from './router.js';

type Page = ComponentType<{ params: Record<string, string>; session: Session }>;

const RunsPage = lazy(() => import('./pages/runs-page.js'));
const RunPage = lazy(() => import('./pages/run-page.js'));
const ApprovalsPage = lazy(() => import('./pages/approvals-page.js'));
const SkillsPage = lazy(() => import('./pages/skills-page.js'));
const SkillPage = lazy(() => import('./pages/skill-page.js'));
const ToolboxPage = lazy(() => import('./pages/toolbox-page.js'));
const McpPage = lazy(() => import('./pages/mcp-page.js'));
const MarketplacePage = lazy(() => import('./pages/marketplace-page.js'));
const ProductPage = lazy(() => import('./pages/product-page.js'));
const AgentsPage = lazy(() => import('./pages/agents-page.js'));
const PolicyPage = lazy(() => import('./pages/policy-page.js'));
const UsagePage = lazy(() => import('./pages/usage-page.js'));
const SettingsPage = lazy(() => import('./pages/settings-page.js'));

/** The UI's routes, most specific first. */
const ROUTES: readonly { pattern: string; page: Page | LazyExoticComponent<Page>; section: string }[] = [
  { pattern: '/chat', page: ChatPage, section: '/chat' },
  { pattern: '/chat/:conversation', page: ChatPage, section: '/chat' },
  { pattern: '/runs', page: RunsPage, section: '/runs' },
  { pattern: '/runs/:run', page: RunPage, section: '/runs' },
  { pattern: '/approvals', page: ApprovalsPage, section: '/approvals' },
  { pattern: '/skills', page: SkillsPage, section: '/skills' },
  { pattern: '/skills/:skill', page: SkillPage, section: '/skills' },
  { pattern: '/toolbox', page: ToolboxPage, section: '/toolbox' },
  { pattern: '/mcp-servers', page: McpPage, section: '/mcp-servers' },
  { pattern: '/marketplace', page: MarketplacePage, section: '/marketplace' },
  { pattern: '/marketplace/:product', page: ProductPage, section: '/marketplace' },
  { pattern: '/agents', page: AgentsPage, section: '/agents' },
  { pattern: '/policy', page: PolicyPage, section: '/policy' },
  { pattern: '/usage', page: UsagePage, section: '/usage' },
  { pattern: '/settings', page: SettingsPage, section: '/settings' },
];

const NAVIGATION: readonly { to: string; label: MessageKey }[] = [
  { to: '/chat', label: 'nav.chat' },
  { to: '/runs', label: 'nav.runs' },
  { to: '/approvals', label: 'nav.approvals' },
  { to: '/skills', label: 'nav.skills' },
  { to: '/toolbox', label: 'nav.toolbox' },
  { to: '/mcp-servers', label: 'nav.mcp' },
  { to: '/marketplace', label: 'nav.marketplace' },
  { to: '/agents', label: 'nav.agents' },
  { to: '/policy', label: 'nav.policy' },
  { to: '/usage', label: 'nav.usage' },
  { to: '/settings', label: 'nav.settings' },
];

const SIGNED_IN_FLAG = 'forge.signedIn';

function flagged(): boolean {
  try {
    return window.localStorage.getItem(SIGNED_IN_FLAG) === '1';
  } catch {
    return false;
  }
}

export function setSignedInFlag(on: boolean): void {
  try {
    if (on) window.localStorage.setItem(SIGNED_IN_FLAG, '1');
    else window.localStorage.removeItem(SIGNED_IN_FLAG);
  } catch {
    // Private mode: nothing to remember.
  }
}

/** Forgets what the last session read and asks again who this page is. */
async function renewSession(queries: QueryClient): Promise<void> {
  queries.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
  await queries.refetchQueries({ queryKey: ['session'] });
}

/** Access tokens last 15 minutes: a signed-in page trades its refresh cookie well before. */
const REFRESH_EVERY_MS = 10 * 60_000;

function Preferences() {
  const { t, language, setLanguage, theme, setTheme } = usePreferences();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="sr-only" htmlFor="language-choice">
        {t('prefs.language')}
      </label>
      <select id="language-choice" className="input w-auto py-1" value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
        <option value="en">English</option>
        <option value="ar">العربية</option>
      </select>
      <label className="sr-only" htmlFor="theme-choice">
        {t('prefs.theme')}
      </label>
      <select id="theme-choice" className="input w-auto py-1" value={theme} onChange={(event) => setTheme(event.target.value as ThemeChoice)}>
        <option value="system">{t('prefs.theme.system')}</option>
        <option value="light">{t('prefs.theme.light')}</option>
        <option value="dark">{t('prefs.theme.dark')}</option>
      </select>
    </div>
  );
}

function Shell({ session, section, children }: { session: Session; section: string; children: React.ReactNode }) {
  const { t } = usePreferences();
  const queries = useQueryClient();
  const [menuOpen, setMenuOpen] = useState(false);
  const { path } = useLocation();
  useEffect(() => setMenuOpen(false), [path]);
  const signOut = async () => {
    await api.logout().catch(() => undefined);
    setSignedInFlag(false);
    navigate('/login', { replace: true });
    await renewSession(queries);
  };
  return (
    <div className="min-h-screen lg:flex">
      <a href="#main" className="sr-only z-50 rounded bg-white p-2 focus:not-sr-only focus:absolute focus:start-2 focus:top-2 dark:bg-stone-900">
        {t('app.skip')}
      </a>
      <header className="flex items-center justify-between gap-2 border-b border-stone-200 bg-white px-4 py-2 lg:hidden dark:border-stone-800 dark:bg-stone-900">
        <span className="text-lg font-bold text-orange-800 dark:text-orange-400">{t('app.name')}</span>
        <button type="button" className="btn" aria-expanded={menuOpen} aria-controls="main-navigation" onClick={() => setMenuOpen(!menuOpen)}>
          {t('nav.menu')}
        </button>
      </header>
      <nav
        id="main-navigation"
        aria-label={t('nav.label')}
        data-testid="navigation"
        className={`${menuOpen ? 'block' : 'hidden'} shrink-0 border-b border-stone-200 bg-white p-3 lg:sticky lg:top-0 lg:block lg:h-screen lg:w-56 lg:overflow-y-auto lg:border-e lg:border-b-0 dark:border-stone-800 dark:bg-stone-900`}
      >
        <p className="mb-4 hidden px-2 text-xl font-bold text-orange-800 lg:block dark:text-orange-400">{t('app.name')}</p>
        <ul className="grid grid-cols-2 gap-1 lg:grid-cols-1">
          {NAVIGATION.map((item) => (
            <li key={item.to}>
              <Link
                to={item.to}
                aria-current={section === item.to ? 'page' : undefined}
                className={`block rounded-md px-2 py-1.5 text-sm font-medium ${section === item.to ? 'bg-orange-100 text-orange-950 dark:bg-orange-950 dark:text-orange-100' : 'text-stone-800 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800'}`}
              >
                {t(item.label)}
              </Link>
            </li>
          ))}
          <li>
            {/* The API reference is served by forge serve itself, outside this app: a full page load. */}
            <a href="/docs/api" className="block rounded-md px-2 py-1.5 text-sm font-medium text-stone-800 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800">
              {t('nav.apiReference')}
            </a>
          </li>
        </ul>
        <div className="mt-4 flex flex-col gap-2 border-t border-stone-200 pt-3 dark:border-stone-800">
          <Preferences />
          {session.user === null ? null : (
            <>
              <p className="muted break-all text-xs">{session.user.email}</p>
              <button type="button" className="btn" onClick={() => void signOut()}>
                {t('auth.signOut')}
              </button>
            </>
          )}
        </div>
      </nav>
      <main id="main" className="min-w-0 flex-1 p-4 lg:p-6" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

function NotFound() {
  const { t } = usePreferences();
  return (
    <div>
      <h1 className="mb-2 text-2xl font-semibold">{t('notFound.title')}</h1>
      <Link to="/chat" className="text-orange-800 underline dark:text-orange-300">
        {t('notFound.back')}
      </Link>
    </div>
  );
}

/** Who may see what: the sign-in page, the session-expired page, or the app. */
export function App() {
  const { path } = useLocation();
  const queries = useQueryClient();
  const [lost, setLost] = useState(false);
  const [refreshTried, setRefreshTried] = useState(false);
  const session = useQuery({ queryKey: ['session'], queryFn: api.session, staleTime: 60_000 });
  useEffect(() => whenSessionLost(() => setLost(true)), []);
  const signedIn = session.data?.signed_in === true;
  const viaSession = session.data?.via === 'session';
  useEffect(() => {
    if (!viaSession) return;
    const timer = setInterval(() => void refreshSession(), REFRESH_EVERY_MS);
    return () => clearInterval(timer);
  }, [viaSession]);
  // A page opened after the access token expired: its refresh cookie may still hold.
  useEffect(() => {
    if (session.data === undefined || signedIn || refreshTried || session.data.auth !== 'accounts' || !flagged()) return;
    setRefreshTried(true);
    void refreshSession().then(async (ok) => {
      if (ok) await queries.invalidateQueries({ queryKey: ['session'] });
      else setLost(true);
    });
  }, [session.data, signedIn, refreshTried, queries]);

  if (session.isPending) return <main className="p-6"><Loading /></main>;
  if (session.error !== null) return <main className="p-6"><ErrorNote error={session.error} /></main>;
  const data = session.data;
  const onSignedIn = async () => {
    setSignedInFlag(true);
    setLost(false);
    setRefreshTried(false);
    await renewSession(queries);
    if (path === '/login' || path === '/session-expired') navigate('/chat', { replace: true });
  };
  if (lost || path === '/session-expired') return <SessionExpiredPage onSignedIn={onSignedIn} />;
  if (!signedIn) {
    if (flagged() && !refreshTried) return <main className="p-6"><Loading /></main>;
    return <LoginPage onSignedIn={onSignedIn} />;
  }
  if (path === '/' || path === '/login') return <Redirect to="/chat" />;
  for (const route of ROUTES) {
    const params = matchPath(route.pattern, path);
    if (params === undefined) continue;
    const RoutePage = route.page;
    return (
      <Shell session={data} section={route.section}>
        <Suspense fallback={<Loading />}>
          <RoutePage params={params} session={data} />
        </Suspense>
      </Shell>
    );
  }
  return (
    <Shell session={data} section="">
      <NotFound />
    </Shell>
  );
}
