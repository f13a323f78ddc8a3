import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';

/** The console's languages: English and Simplified Chinese. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'zh-CN', name: '简体中文' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

const STORAGE_KEY = 'kbqa.language';

/** The user's choice if they made one here, else the first of the browser's languages that the console speaks. */
export function initialLanguage(): Language {
  const chosen = localStorage.getItem(STORAGE_KEY);
  if (chosen === 'en' || chosen === 'zh-CN') return chosen;
  for (const tag of navigator.languages ?? [navigator.language]) {
    if (/^zh\b/i.test(tag)) return 'zh-CN';
    if (/^en\b/i.test(tag)) return 'en';
  }
  return 'en';
}

void i18next.use(initReactI18next).init({
  lng: initialLanguage(),
  fallbackLng: 'en',
  resources: {},
  // React escapes what it renders; i18next escaping too would show entities.
  interpolation: { escapeValue: false },
  returnNull: false,
});
document.documentElement.lang = i18next.language;

export function chooseLanguage(language: Language) {
  localStorage.setItem(STORAGE_KEY, language);
  document.documentElement.lang = language;
  void i18next.changeLanguage(language);
}

type Flat = Record<string, string>;

/**
 * A screen's text in both languages, registered under its namespace (the capability's name). The
 * Chinese table must have every English key (the type says so). Returns the screen's hook:
 * `const t = useText(); t('create')`, typed by the keys; `{{name}}` interpolates, `_one`/`_other` plurals.
 */
export function defineMessages<const En extends Flat>(namespace: string, en: En, zhCN: { [K in keyof En]: string }) {
  i18next.addResourceBundle('en', namespace, en, true, true);
  i18next.addResourceBundle('zh-CN', namespace, zhCN, true, true);
  type Key = { [K in keyof En & string]: K extends `${infer Base}_${'one' | 'other'}` ? Base : K }[keyof En & string];
  return function useText() {
    const { t } = useTranslation(namespace);
    return (key: Key, values?: Record<string, unknown>): string => String(t(key, values as never));
  };
}

export { i18next };
