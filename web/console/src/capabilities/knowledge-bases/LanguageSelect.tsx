import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
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
  return (
    <Select selectedKey={value} onSelectionChange={(key) => key !== null && onChange(String(key))} isDisabled={isDisabled}>
      <Label>{t('language')}</Label>
      <Button>
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover>
        <ListBox>
          <ListBoxItem id="auto">{t('languageAuto')}</ListBoxItem>
          {ANALYZER_LANGUAGES.map((code) => (
            <ListBoxItem key={code} id={code} textValue={names.of(code) ?? code}>
              {`${names.of(code) ?? code} (${code})`}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}
