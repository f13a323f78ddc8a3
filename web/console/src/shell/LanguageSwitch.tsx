import { useTranslation } from 'react-i18next';
import { chooseLanguage, type Language, LANGUAGES } from '../i18n/index.ts';
import { useShellText } from './messages.ts';

/** English or Simplified Chinese; the choice is remembered in this browser. */
export function LanguageSwitch() {
  const t = useShellText();
  const { i18n } = useTranslation();
  return (
    <label className="language-switch">
      <span>{t('language')}</span>
      <select value={i18n.language} onChange={(event) => chooseLanguage(event.target.value as Language)}>
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
    </label>
  );
}
