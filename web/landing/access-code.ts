import { h } from './dom.ts';
import type { Strings } from './i18n.ts';

/**
 * The access-code form. The code is not checked here: it goes with the next question
 * (`access_code`), and a 401 from the chat shows the form again.
 */
export function accessCodeForm(t: Strings, onCode: (code: string) => void) {
  const input = h('input', { id: 'kbqa-access-code', name: 'access_code', type: 'password', autocomplete: 'off', required: true });
  const hint = h('p', { id: 'kbqa-access-hint' }, t.accessCodeHint);
  input.setAttribute('aria-describedby', hint.id);
  const form = h('form', { class: 'access', hidden: true }, hint, h('label', { for: input.id }, t.accessCode), h('div', { class: 'row' }, input, h('button', { type: 'submit' }, t.continue)));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const code = input.value.trim();
    if (!code) return;
    form.hidden = true;
    onCode(code);
  });
  return {
    form,
    show(invalid: boolean) {
      hint.textContent = invalid ? t.accessCodeInvalid : t.accessCodeHint;
      form.hidden = false;
      input.value = '';
      input.focus();
    },
  };
}
