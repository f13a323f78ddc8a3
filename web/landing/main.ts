import { accessCodeForm } from './access-code.ts';
import { type ChatMessage, createApi, type Failure, RequestFailed } from './api.ts';
import { citationPanel } from './answer.ts';
import { composer } from './composer.ts';
import { h } from './dom.ts';
import { pickLocale, type Strings } from './i18n.ts';
import { messageLog } from './messages.ts';

/** What the server embeds in the page (src/http/landing/page-html.ts). */
type View = { slug: string; name: string; opening_message: string | null; suggested_questions: string[]; access_code_required: boolean };

const view = JSON.parse(document.getElementById('kbqa-agent')!.textContent!) as View;
const { lang, t } = pickLocale(navigator.languages?.length ? navigator.languages : [navigator.language]);
document.documentElement.lang = lang;

const api = createApi(view.slug);
const log = document.getElementById('kbqa-log')!;
log.setAttribute('aria-label', t.conversation);
const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
const openPanel = citationPanel(t);
const messages = messageLog(log, t, openPanel, async (id, rating) => {
  try {
    await api.feedback(id, rating);
    say(t.thanks);
    return true;
  } catch (error) {
    say(wording(error, t));
    return false;
  }
});
const history: ChatMessage[] = [];
let accessCode: string | undefined;
let asking = false;

const access = accessCodeForm(t, (code) => {
  accessCode = code;
  box.focus();
});
const box = composer(t, (text) => void ask(text));
const suggestions = suggestedQuestions(view.suggested_questions, t, (text) => void ask(text));
document.getElementById('kbqa-app')!.append(...(suggestions ? [suggestions] : []), status, access.form, box.form);
if (view.access_code_required) access.show(false);

void restoreHistory();

async function ask(text: string) {
  if (asking) return;
  asking = true;
  box.busy(true);
  say('');
  messages.user(text);
  history.push({ role: 'user', content: text });
  const answer = messages.assistant();
  log.setAttribute('aria-busy', 'true');
  let content = '';
  let id: string | undefined;
  try {
    await api.chat(history, accessCode, (update) => {
      id = update.id ?? id;
      content += update.text ?? '';
      answer.show(content, update.citations);
    });
    history.push({ role: 'assistant', content });
    answer.done(id);
  } catch (error) {
    // The question was not answered: it leaves the history the next question sends, and goes back
    // in the box (unless the visitor has typed another) to be sent again.
    history.pop();
    answer.failed(content);
    box.offer(text);
    onFailure(error);
  } finally {
    log.setAttribute('aria-busy', 'false');
    asking = false;
    box.busy(false);
  }
}

function onFailure(error: unknown) {
  const failure: Failure | undefined = error instanceof RequestFailed ? error.failure : undefined;
  if (failure?.kind === 'access_code') {
    accessCode = undefined;
    access.show(failure.invalid);
  }
  say(wording(error, t));
}

async function restoreHistory() {
  const past = await api.history();
  if (past.length) access.form.hidden = true;
  for (const message of past) {
    history.push({ role: message.role, content: message.content });
    if (message.role === 'user') {
      messages.user(message.content);
      continue;
    }
    const answer = messages.assistant();
    answer.show(message.content, message.citations);
    answer.done(message.id);
  }
}

function say(text: string) {
  status.textContent = text;
}

function suggestedQuestions(questions: readonly string[], t: Strings, onAsk: (text: string) => void): HTMLElement | undefined {
  if (!questions.length) return undefined;
  const buttons = questions.map((question) => {
    const button = h('button', { type: 'button' }, question);
    button.addEventListener('click', () => onAsk(question));
    return h('li', {}, button);
  });
  return h('nav', { class: 'suggested', 'aria-label': t.suggested }, h('ul', {}, ...buttons));
}

function wording(error: unknown, t: Strings): string {
  const failure: Failure = error instanceof RequestFailed ? error.failure : error instanceof TypeError ? { kind: 'network' } : { kind: 'failed' };
  switch (failure.kind) {
    case 'access_code':
      return failure.invalid ? t.accessCodeInvalid : t.accessCodeHint;
    case 'rate_limited':
      return t.retryIn(failure.retryAfter);
    case 'daily_cap':
      return t.dailyCap;
    case 'not_found':
      return t.notFound;
    case 'network':
      return t.network;
    case 'failed':
      return t.failed;
    default:
      return failure satisfies never;
  }
}

