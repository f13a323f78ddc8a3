import { useTranslation } from 'react-i18next';
import { SelectField } from '../../ui/SelectField.tsx';
import { useKnowledgeBaseText } from './messages.ts';

/**
 * The languages keyword search analyses (stemming, stop words): the settings schema's
 * ANALYZER_LANGUAGES, which the API does not list, so they are repeated here.
 */
const ANALYZER_LANGUAGES = ['ar', 'bg', 'cs', 'da', 'de', 'el', 'en', 'es', 'fa', 'fi', 'fr', 'ga', 'he', 'hi', 'hu', 'hy', 'id', 'it', 'ja', 'ko', 'lt', 'ne', 'nl', 'no', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sr', 'sv', 'ta', 'th', 'tr', 'uk', 'vi', 'zh'];

type Props = { value: string; onChange(code: string): void; isDisabled?: boolean };

/** A knowledge base's language: 'auto' or an ISO 639-1 code, named in the console's language. */
export function LanguageSelect({ value, onChange, isDisabled }: Props) {
  const t = useKnowledgeBaseText();
  const { i18n } = useTranslation();
  const names = new Intl.DisplayNames([i18n.language], { type: 'language' });
  const options = [
    { id: 'auto', label: t('languageAuto') },
    ...ANALYZER_LANGUAGES.map((code) => ({ id: code, label: `${names.of(code) ?? code} (${code})`, textValue: names.of(code) ?? code })),
  ];
  return <SelectField label={t('language')} options={options} selectedKey={value} onChange={onChange} isDisabled={isDisabled} />;
}
