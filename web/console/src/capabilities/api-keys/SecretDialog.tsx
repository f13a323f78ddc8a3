import { Button, Dialog, Heading, Input, Label, Modal, TextField } from 'react-aria-components';
import { CopyButton } from '../../ui/CopyButton.tsx';
import type { CreatedKey } from './NewApiKeyDialog.tsx';
import { useApiKeyText } from './messages.ts';

/**
 * The secret of a key just created, the one time the API gives it. Not dismissable by a click
 * outside: losing it by accident means revoking the key and making another.
 */
export function SecretDialog({ created, onClose }: { created: CreatedKey | null; onClose(): void }) {
  const t = useApiKeyText();
  return (
    <Modal isOpen={!!created} onOpenChange={(open) => open || onClose()}>
      <Dialog>
        {created && (
          <div className="stack">
            <Heading slot="title">{t('secretTitle')}</Heading>
            <p className="secret-note">{t('secretNote')}</p>
            <div className="secret-row">
              <TextField isReadOnly value={created.secret} className="react-aria-TextField secret-field">
                <Label>{t('secretLabel')}</Label>
                <Input onFocus={(event) => event.currentTarget.select()} />
              </TextField>
            </div>
            <div className="dialog-actions">
              <CopyButton text={created.secret} label={t('copy')} copiedLabel={t('copied')} />
              <Button className="react-aria-Button primary" onPress={onClose}>
                {t('done')}
              </Button>
            </div>
          </div>
        )}
      </Dialog>
    </Modal>
  );
}
