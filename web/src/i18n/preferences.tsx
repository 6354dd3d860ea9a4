import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ar } from './arabic.js';
import { en, type MessageKey, type Messages } from './messages.js';

export type Language = 'en' | 'ar';
export type ThemeChoice = 'system' | 'light' | 'dark';

const MESSAGES: Record<Language, Messages> = { en, ar };

interface Preferences {
  readonly language: Language;
  readonly theme: ThemeChoice;
  setLanguage(language: Language): void;
  setTheme(theme: ThemeChoice): void;
  /** The message in the current language, `{name}` placeholders filled. */
  t(key: MessageKey, values?: Readonly<Record<string, string | number>>): string;
}

const PreferencesContext = createContext<Preferences | undefined>(undefined);

function stored<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const value = window.localStorage.getItem(key);
    return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

function remember(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private mode: the choice lasts this page only.
  }
}

function initialLanguage(): Language {
  const fromQuery = new URLSearchParams(window.location.search).get('lang');
  if (fromQuery === 'en' || fromQuery === 'ar') return fromQuery;
  return stored('forge.language', ['en', 'ar'], navigator.language.toLowerCase().startsWith('ar') ? 'ar' : 'en');
}

/** Applies the language (lang, dir) and the theme (class `dark`, following the system unless chosen) to the document. */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  const [theme, setThemeState] = useState<ThemeChoice>(() => stored('forge.theme', ['system', 'light', 'dark'], 'system'));
  const [systemDark, setSystemDark] = useState(() => window.matchMedia('(prefers-color-scheme: dark)').matches);

  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => setSystemDark(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  useEffect(() => {
    document.documentElement.lang = language;
    document.documentElement.dir = language === 'ar' ? 'rtl' : 'ltr';
  }, [language]);
  useEffect(() => {
    document.documentElement.classList.toggle('dark', theme === 'dark' || (theme === 'system' && systemDark));
  }, [theme, systemDark]);

  const setLanguage = useCallback((next: Language) => {
    remember('forge.language', next);
    setLanguageState(next);
  }, []);
  const setTheme = useCallback((next: ThemeChoice) => {
    remember('forge.theme', next);
    setThemeState(next);
  }, []);
  const value = useMemo<Preferences>(
    () => ({
      language,
      theme,
      setLanguage,
      setTheme,
      t: (key, values) => MESSAGES[language][key].replace(/\{(\w+)\}/g, (match, name: string) => (values?.[name] === undefined ? match : String(values[name]))),
    }),
    [language, theme, setLanguage, setTheme],
  );
  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

export function usePreferences(): Preferences {
  const preferences = useContext(PreferencesContext);
  if (preferences === undefined) throw new Error('usePreferences outside PreferencesProvider');
  return preferences;
}
