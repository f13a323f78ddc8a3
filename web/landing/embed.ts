/**
 * The embed script (`<script src="{origin}/assets/landing/embed.js" data-kbqa-agent="{slug}" defer>`):
 * a chat bubble on someone else's page that opens the agent's landing page in a frame. It runs in
 * their page, so it touches nothing but the two elements it adds, sets no globals, and styles
 * through the CSSOM (which their CSP's style-src does not block, unlike style attributes).
 */
const script = document.currentScript as HTMLScriptElement | null;
const slug = script?.dataset.kbqaAgent;
if (script && slug) mount(new URL(script.src).origin, slug);

function mount(origin: string, slug: string) {
  const zh = /^zh\b/i.test(navigator.language);
  const label = { open: zh ? '打开聊天' : 'Open chat', close: zh ? '关闭聊天' : 'Close chat', title: zh ? '聊天' : 'Chat' };
  const frame = document.createElement('iframe');
  frame.id = `kbqa-chat-${slug}`;
  frame.title = label.title;
  frame.hidden = true;
  Object.assign(frame.style, {
    position: 'fixed', right: '1rem', bottom: '5.5rem', width: 'min(400px, calc(100vw - 2rem))', height: 'min(600px, calc(100vh - 7rem))',
    border: '0', borderRadius: '12px', boxShadow: '0 8px 32px rgba(0,0,0,.25)', zIndex: '2147483646', background: '#fff',
  });
  const button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', frame.id);
  button.setAttribute('aria-label', label.open);
  button.textContent = '💬';
  Object.assign(button.style, {
    position: 'fixed', right: '1rem', bottom: '1rem', width: '3.5rem', height: '3.5rem', borderRadius: '50%', border: '0',
    background: '#1d4ed8', color: '#fff', fontSize: '1.5rem', cursor: 'pointer', boxShadow: '0 4px 16px rgba(0,0,0,.3)', zIndex: '2147483647',
  });
  button.addEventListener('click', () => {
    const open = frame.hidden;
    // The page loads on first open only: a visitor who never opens it costs the agent nothing.
    if (open && !frame.src) frame.src = `${origin}/a/${encodeURIComponent(slug)}`;
    frame.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', open ? label.close : label.open);
    if (open) frame.focus();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || frame.hidden) return;
    button.click();
    button.focus();
  });
  document.body.append(frame, button);
}
