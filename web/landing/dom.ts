/**
 * Elements built from properties and children, never from markup: text goes in as text nodes, so
 * nothing an agent's owner or a model writes can become HTML (an answer with `<script>` stays text).
 */
type Props = { [key: string]: string | boolean | number | undefined };

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    // Attributes only (aria-*, type, for…): no `on*` property or innerHTML can be set from here.
    if (/^on/i.test(key)) throw new Error(`no inline handlers: ${key}`);
    el.setAttribute(key, value === true ? '' : String(value));
  }
  el.append(...children);
  return el;
}
