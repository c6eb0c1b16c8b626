// embed.js: an event's checkout on another site's page (decision 0061). The organizer pastes
//   <script src="https://<admit>/embed.js" async></script>
//   <admit-tickets event="<slug>"></admit-tickets>
// and the element, once on screen, asks Admit whether this site is on the event's list and shows the
// checkout in a frame (`/embed/e/<slug>`), or a link to the event's page when it is not. With
// `mode="button"` it is a button (its own text, else the event's title) that opens the checkout over
// the page. It loads nothing before the element is on screen and stays a few kilobytes: no framework,
// no words of its own but the event's title and the organizer's (the frame speaks the page's language).

type Check = { allowed: boolean; title: string; url: string };
type FrameMessage = { admit?: string; height?: number };

const admit = new URL((document.currentScript as HTMLScriptElement | null)?.src || '/', location.href).origin;

/** Below this width the checkout opens in a tab of its own: a payment step needs the whole screen. */
const smallScreen = 480;

const style = `:host{display:block}iframe{display:block;width:100%;border:0;height:420px}
button{font:inherit;padding:.6em 1.2em;border-radius:8px;border:0;background:#1c7ed6;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #1864ab;outline-offset:2px}
dialog{width:min(720px,100vw - 2rem);max-height:calc(100vh - 2rem);padding:0;border:0;border-radius:12px}
dialog::backdrop{background:#0008}`;

class AdmitTickets extends HTMLElement {
  private started = false;

  connectedCallback() {
    if (this.started) return;
    this.started = true;
    const seen = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        seen.disconnect();
        void this.show();
      },
      { rootMargin: '200px' },
    );
    seen.observe(this);
  }

  private async show() {
    const slug = this.getAttribute('event') ?? '';
    if (!/^[\w-]{1,120}$/.test(slug)) return;
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = `<style>${style}</style>`;
    let check: Check;
    try {
      const answer = await fetch(`${admit}/embed/e/${slug}/allowed?origin=${encodeURIComponent(location.origin)}`);
      check = answer.ok ? ((await answer.json()) as Check) : { allowed: false, title: slug, url: `${admit}/e/${slug}` };
    } catch {
      check = { allowed: false, title: slug, url: `${admit}/e/${slug}` };
    }
    const code = this.getAttribute('code');
    const lang = this.closest<HTMLElement>('[lang]')?.lang || navigator.language;
    const page = new URL(check.url);
    if (code) page.searchParams.set('code', code);
    const label = this.textContent?.trim() || check.title;
    // A site not on the event's list gets the event's page: a frame would only show the browser's refusal.
    if (!check.allowed) {
      const link = document.createElement('a');
      link.href = page.href;
      link.target = '_blank';
      link.rel = 'noopener';
      link.textContent = label;
      link.part = 'link';
      root.append(link);
      return;
    }
    // Where the checkout cannot finish inside this page, the frame says why and opens it in a tab.
    const tab = !isSecureContext ? 'insecure' : innerWidth < smallScreen ? 'small' : '';
    const frameUrl = new URL(`${admit}/embed/e/${slug}`);
    for (const [name, value] of [
      ['lang', lang],
      ['code', code],
      ['source', location.origin],
      ['tab', tab],
    ])
      if (value) frameUrl.searchParams.set(name!, value);
    if (this.getAttribute('mode') !== 'button') return root.append(this.frame(frameUrl, check.title));

    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.part = 'button';
    root.append(button);
    button.onclick = () => {
      if (tab === 'small') return void open(page.href, '_blank', 'noopener');
      frameUrl.searchParams.set('over', 'page');
      const dialog = document.createElement('dialog');
      dialog.setAttribute('aria-label', check.title);
      dialog.append(this.frame(frameUrl, check.title, () => dialog.close()));
      dialog.onclose = () => {
        dialog.remove();
        button.focus();
      };
      root.append(dialog);
      dialog.showModal();
    };
  }

  /** The checkout's frame: it grows to what it shows, and may ask to be closed (the dialog's). */
  private frame(url: URL, title: string, close?: () => void) {
    const frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = title;
    frame.allow = 'payment';
    addEventListener('message', (message: MessageEvent<FrameMessage>) => {
      if (message.origin !== admit || message.source !== frame.contentWindow) return;
      if (message.data.admit === 'height' && typeof message.data.height === 'number')
        frame.style.height = `${Math.min(Math.max(message.data.height, 100), 5000)}px`;
      if (message.data.admit === 'close') close?.();
    });
    return frame;
  }
}

if (!customElements.get('admit-tickets')) customElements.define('admit-tickets', AdmitTickets);
