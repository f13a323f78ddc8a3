import type { DropItem } from 'react-aria-components';
import { Button, DropZone, FileTrigger, Text } from 'react-aria-components';
import { useDocumentText } from './messages.ts';

/** Where files are dropped or chosen, many at once; each goes up as its own upload. */
export function UploadZone({ onFiles }: { onFiles(files: File[]): void }) {
  const t = useDocumentText();
  async function dropped(items: DropItem[]) {
    const files = await Promise.all(items.filter((item) => item.kind === 'file').map((item) => item.getFile()));
    if (files.length > 0) onFiles(files);
  }
  return (
    <DropZone className="react-aria-DropZone drop-zone" onDrop={(event) => void dropped(event.items)}>
      <div className="row upload-prompt">
        <Text slot="label">{t('dropHere')}</Text>
        <FileTrigger allowsMultiple ref={labelInput(t('uploadDocuments'))} onSelect={(list) => list && onFiles([...list])}>
          <Button className="react-aria-Button primary">{t('chooseFiles')}</Button>
        </FileTrigger>
      </div>
      <p className="muted hint">{t('formats')}</p>
    </DropZone>
  );
}

/**
 * FileTrigger passes no aria-label to its hidden input, which is what tests and assistive tools
 * find as "Upload documents": set on the element itself.
 */
function labelInput(label: string) {
  return (input: HTMLInputElement | null) => input?.setAttribute('aria-label', label);
}
