import { useTranslation } from 'react-i18next';
import { apiErrorSaid, type CodeLanguage, documentFailureSaid, NOT_COVERED_TEXT, type Said } from './server-codes.ts';

/**
 * The server's codes in the console's language (server-codes.ts): a component re-renders when
 * the language changes, as with its own text.
 */
export function useServerText() {
  const { i18n } = useTranslation();
  const language: CodeLanguage = i18n.language === 'zh-CN' ? 'zh-CN' : 'en';
  return {
    language,
    documentFailure: (error: Parameters<typeof documentFailureSaid>[1]): Said => documentFailureSaid(language, error),
    apiError: (error: Parameters<typeof apiErrorSaid>[1]): Said => apiErrorSaid(language, error),
    notCovered: NOT_COVERED_TEXT[language],
  };
}
