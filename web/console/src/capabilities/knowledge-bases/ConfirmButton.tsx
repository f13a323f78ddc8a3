import { type ReactNode, useState } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Modal } from 'react-aria-components';
import { ErrorNote } from '../../ui/ErrorNote.tsx';

type Props = {
  /** The button's name, and the confirming button's. */
  label: string;
  confirmLabel: string;
  cancelLabel: string;
  question: ReactNode;
  /** Done when confirmed; a failure is shown in the dialog, which stays open. */
  onConfirm(): Promise<void>;
  /** The trigger's accessible name when the visible label is not enough ("Delete zephyr-9.pdf"). */
  ariaLabel?: string;
};

/** A destructive action behind a confirmation dialog (delete a document, a knowledge base). */
export function ConfirmButton({ label, confirmLabel, cancelLabel, question, onConfirm, ariaLabel }: Props) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  return (
    <DialogTrigger onOpenChange={() => setError(null)}>
      <Button className="react-aria-Button danger" aria-label={ariaLabel}>
        {label}
      </Button>
      <Modal isDismissable>
        <Dialog role="alertdialog">
          {({ close }) => (
            <div className="stack">
              <Heading slot="title">{question}</Heading>
              <ErrorNote error={error} />
              <div className="dialog-actions">
                <Button onPress={close} autoFocus>
                  {cancelLabel}
                </Button>
                <Button
                  className="react-aria-Button danger"
                  // Not isPending: React Aria would announce this button by reference, and it is
                  // gone once the action succeeds, leaving a nameless element in the live region.
                  isDisabled={pending}
                  onPress={async () => {
                    setPending(true);
                    try {
                      await onConfirm();
                      close();
                    } catch (failure) {
                      setError(failure);
                    } finally {
                      setPending(false);
                    }
                  }}
                >
                  {confirmLabel}
                </Button>
              </div>
            </div>
          )}
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}
