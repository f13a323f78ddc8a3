import { h } from './dom.ts';
import type { Strings } from './i18n.ts';

/** The message box and its Send button: Enter sends, Shift+Enter is a new line, IME composition is left alone. */
export function composer(t: Strings, onSend: (text: string) => void) {
  const box = h('textarea', { id: 'kbqa-message', name: 'message', rows: 2, required: true, enterkeyhint: 'send' });
  const send = h('button', { type: 'submit' }, t.send);
  const form = h('form', { class: 'composer' }, h('label', { for: box.id, class: 'visually-hidden' }, t.message), box, send);
  const submit = () => {
    const text = box.value.trim();
    if (!text || send.disabled) return;
    box.value = '';
    onSend(text);
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  box.addEventListener('keydown', (event) => {
    // isComposing: Enter that picks a Chinese candidate must not send a half-typed question.
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    submit();
  });
  return {
    form,
    busy(on: boolean) {
      send.disabled = on;
    },
    focus: () => box.focus(),
    /** Puts an unanswered question back, if the box is empty. */
    offer(text: string) {
      if (!box.value) box.value = text;
    },
  };
}
