import { type FormEvent, type ReactNode, useState } from 'react';
import { Button, Dialog, DialogTrigger, Form, Heading, Modal } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { ErrorNote } from './ErrorNote.tsx';

/** The "New …" button and its modal; the form inside is mounted afresh on each opening, so it starts empty. */
export function CreateDialog({ label, children }: { label: string; children(close: () => void): ReactNode }) {
  return (
    <DialogTrigger>
      <Button className="react-aria-Button primary">{label}</Button>
      <Modal isDismissable>
        <Dialog>{({ close }) => children(close)}</Dialog>
      </Modal>
    </DialogTrigger>
  );
}

/** Where to go once created: the new thing's screen (and what that screen should be told). */
export type Created = { to: string; state?: unknown };

type FormProps = {
  title: string;
  cancel: string;
  create: string;
  close(): void;
  /** Whether the fields are complete (the create button waits for it). */
  canCreate?: boolean;
  onCreate(): Promise<Created>;
  children: ReactNode;
};

/**
 * A create form: its fields, the API's refusal in its own words, Cancel and Create. Create calls
 * `onCreate` once at a time; on success the dialog closes and the new thing's screen opens, on
 * failure the fields stay as typed.
 */
export function CreateForm({ title, cancel, create, close, canCreate = true, onCreate, children }: FormProps) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!canCreate) return;
    setPending(true);
    setError(null);
    try {
      const created = await onCreate();
      close();
      void navigate(created.to, { state: created.state });
    } catch (failure) {
      setError(failure);
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="stack">
      <Heading slot="title">{title}</Heading>
      {children}
      <ErrorNote error={error} />
      <div className="dialog-actions">
        <Button onPress={close}>{cancel}</Button>
        {/* Not isPending: announced by reference, the button is gone once created (ConfirmButton says more). */}
        <Button type="submit" className="react-aria-Button primary" isDisabled={pending || !canCreate}>
          {create}
        </Button>
      </div>
    </Form>
  );
}
