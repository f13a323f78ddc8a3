import { Button, Dialog, DialogTrigger, Heading, Modal } from 'react-aria-components';
import { type PageBox, PageImage } from '../../ui/PageImage.tsx';
import { useChatText } from './messages.ts';

type Props = { knowledgeBaseId: string; documentId: string; page: number; source: string; boxes?: readonly PageBox[] };

/**
 * A cited page in the panel (a third of the screen wide) and, on "Enlarge", at a dialog's full
 * width: the panel's ~340 px left a scanned page's small print unreadable. The dialog is
 * react-aria's: focus moves into it, Escape or Close shuts it and gives focus back to the button.
 */
export function PageZoom({ knowledgeBaseId, documentId, page, source, boxes }: Props) {
  const t = useChatText();
  const alt = t('pageAlt', { page, source });
  const image = <PageImage knowledgeBaseId={knowledgeBaseId} documentId={documentId} page={page} fileName={source} boxes={boxes} alt={alt} />;
  return (
    <div className="page-zoomable stack">
      {image}
      <DialogTrigger>
        {/* The visible word starts the accessible name (WCAG 2.5.3): a voice user says what they see. */}
        <Button className="react-aria-Button page-zoom-open" aria-label={t('enlarge', { page, source })}>
          {t('enlargeShort')}
        </Button>
        <Modal isDismissable className="react-aria-Modal page-zoom">
          <Dialog aria-label={alt}>
            {({ close }) => (
              <>
                <div className="page-zoom-head">
                  <Heading slot="title">{alt}</Heading>
                  <Button onPress={close}>{t('close')}</Button>
                </div>
                {image}
              </>
            )}
          </Dialog>
        </Modal>
      </DialogTrigger>
    </div>
  );
}
