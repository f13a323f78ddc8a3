import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';

type Props = {
  text: string;
  /** The button's name ("Copy", "Copy link"), and what it says for a moment once copied. */
  label: string;
  copiedLabel: string;
};

/** Copies a text to the clipboard; the button says so for two seconds (a live region announces it). */
export function CopyButton({ text, label, copiedLabel }: Props) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <>
      <Button onPress={() => void navigator.clipboard.writeText(text).then(() => setCopied(true))}>{label}</Button>
      <span role="status" className="muted">
        {copied ? copiedLabel : ''}
      </span>
    </>
  );
}
