import type { Citation } from './api.ts';
import { answerNodes } from './answer.ts';
import { h } from './dom.ts';
import type { Strings } from './i18n.ts';

export type Rate = (messageId: string, rating: 'up' | 'down') => Promise<boolean>;

/** The conversation's messages, appended to the log. */
export function messageLog(log: HTMLElement, t: Strings, openCitation: (citation: Citation) => void, rate: Rate) {
  const add = (node: HTMLElement) => {
    log.append(node);
    node.scrollIntoView({ block: 'end', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    return node;
  };
  return {
    user(text: string) {
      add(h('div', { class: 'msg user' }, h('span', { class: 'visually-hidden' }, `${t.you}: `), h('p', {}, text)));
    },
    /** An assistant message that fills as the answer streams in. */
    assistant() {
      const text = h('p', {}, t.answering);
      const row = h('div', { class: 'feedback', hidden: true });
      const bubble = add(h('div', { class: 'msg agent' }, text, row));
      let citations: Citation[] = [];
      let id: string | undefined;
      return {
        show(content: string, latest?: Citation[]) {
          if (latest) citations = latest;
          text.replaceChildren(...answerNodes(content, citations, t, openCitation));
        },
        done(messageId: string | undefined) {
          id = messageId;
          if (!id) return;
          row.replaceChildren(...thumbs(t, id, rate));
          row.hidden = false;
        },
        /** Not answered: what came stays (a stream cut short), an answer with nothing in it goes. */
        failed(content: string) {
          if (content) this.show(content);
          else bubble.remove();
        },
      };
    },
  };
}

function thumbs(t: Strings, messageId: string, rate: Rate): HTMLElement[] {
  const up = h('button', { type: 'button', 'aria-pressed': 'false' }, icon('👍'), t.helpful);
  const down = h('button', { type: 'button', 'aria-pressed': 'false' }, icon('👎'), t.notHelpful);
  for (const [button, rating, other] of [[up, 'up', down], [down, 'down', up]] as const) {
    button.addEventListener('click', () => {
      void rate(messageId, rating).then((ok) => {
        if (!ok) return;
        button.setAttribute('aria-pressed', 'true');
        other.setAttribute('aria-pressed', 'false');
      });
    });
  }
  return [up, down];
}

/** Decoration only: the button's name is its word ("Helpful"), not the emoji's. */
const icon = (emoji: string) => h('span', { 'aria-hidden': 'true' }, emoji, ' ');
