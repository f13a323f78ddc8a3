import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { Button, Form, Label, Text, TextArea, TextField } from 'react-aria-components';
import { useChatText } from './messages.ts';

type Props = { disabled: boolean; sending: boolean; onSend(text: string): void; onStop(): void };

/** The message box: Enter sends, Shift+Enter breaks the line (as in the peers' chat boxes). */
export function Composer({ disabled, sending, onSend, onStop }: Props) {
  const t = useChatText();
  const [text, setText] = useState('');
  const ready = text.trim() !== '' && !disabled && !sending;

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!ready) return;
    onSend(text.trim());
    setText('');
  }
  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <Form className="composer" onSubmit={submit}>
      <TextField value={text} onChange={setText} className="react-aria-TextField composer-field">
        <Label>{t('message')}</Label>
        <TextArea rows={2} onKeyDown={onKeyDown} />
        <Text slot="description">{t('messageHint')}</Text>
      </TextField>
      {sending ? (
        <Button className="react-aria-Button" onPress={onStop}>
          {t('stop')}
        </Button>
      ) : (
        <Button type="submit" className="react-aria-Button primary" isDisabled={!ready}>
          {t('send')}
        </Button>
      )}
    </Form>
  );
}
