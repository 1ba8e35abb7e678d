/**
 * `<cni-sim>`: the simulator in any page, from one script (built in library mode as
 * dist/cni-sim.js, see vite.config.ts). It holds an iframe of embed.html inside its shadow root:
 * the host page's styles cannot reach the simulator, nor its styles the page. The iframe is
 * created only when the element comes near the viewport, and sizes itself to its content.
 *
 *   <script src="https://example.org/cnisim/cni-sim.js" defer></script>
 *   <cni-sim scenario="sandbox" step="12" views="sequence,inspector" theme="host"></cni-sim>
 *
 * Attributes: scenario (sandbox, lesson:<id>, challenge:<id>[:<seed>], scenario:<name> or a share
 * payload), step, views,
 * theme (light, dark, auto, or host: follow the page's own dark-mode marker), level, autoplay,
 * src (embed.html's address, http(s) only; default: next to this script. Any other value, such as
 * a javascript: URL, is refused: the default is used, and the element and the console say why).
 * Events: `cni-sim:ready`, `cni-sim:step` (detail { step, length }), `cni-sim:solved` (detail
 * { lesson }), `cni-sim:error` (detail { message }).
 * Methods: goTo(step), load(scenario, step?), injectFault(id, params?), setViews(views).
 * Loading the script twice is harmless: the element is defined once.
 */
import {
  embedSrc,
  isLevel,
  isScenario,
  isTheme,
  isView,
  paramsQuery,
  parseEmbedMessage,
  PROTOCOL,
  type EmbedView,
  type HostMessage,
  type Theme,
} from '../embed/protocol';

const TAG = 'cni-sim';

// Where this script came from: embed.html is next to it.
// (An inline or bundled copy has no src of its own: the page's address then.)
const SCRIPT_URL =
  (document.currentScript as HTMLScriptElement | null)?.src || new URL('./', location.href).href;

type Body<M> = M extends unknown ? Omit<M, 'cnisim'> : never;

/** The page's own dark mode: Docusaurus/Hugo `data-theme`, VitePress/Tailwind `.dark`, MkDocs Material `slate`. */
function hostTheme(): 'light' | 'dark' {
  const html = document.documentElement;
  const body = document.body;
  const dark =
    html.dataset['theme'] === 'dark' ||
    html.classList.contains('dark') ||
    body?.dataset['mdColorScheme'] === 'slate' ||
    html.dataset['mdColorScheme'] === 'slate';
  return dark ? 'dark' : 'light';
}

const STYLE = `
:host { display: block; contain: content; }
:host([hidden]) { display: none; }
iframe { display: block; width: 100%; height: 320px; border: 0; }
.placeholder { min-height: 320px; display: grid; place-items: center; font: 14px system-ui, sans-serif;
  color: #4b5563; border: 1px dashed #c9ced6; border-radius: 6px; }
.problem { margin: 0 0 4px; font: 13px system-ui, sans-serif; color: #92400e; }
`;

class CniSimElement extends HTMLElement {
  static observedAttributes = ['scenario', 'step', 'views', 'theme', 'level', 'autoplay', 'src'];

  #root: ShadowRoot;
  #iframe: HTMLIFrameElement | null = null;
  #origin = '';
  #step = 0;
  #length = 0;
  #visibility: IntersectionObserver | null = null;
  #themeWatch: MutationObserver | null = null;
  #onMessage = (e: MessageEvent) => this.#message(e);

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = STYLE;
    const placeholder = document.createElement('div');
    placeholder.className = 'placeholder';
    placeholder.textContent = 'The cnisim simulation loads when it is scrolled into view.';
    this.#root.append(style, placeholder);
  }

  /** The step the simulator reports (0: the start). */
  get step(): number {
    return this.#step;
  }

  get length(): number {
    return this.#length;
  }

  connectedCallback(): void {
    window.addEventListener('message', this.#onMessage);
    if (this.#iframe) return;
    this.#visibility = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          this.#visibility?.disconnect();
          this.#visibility = null;
          this.#render();
        }
      },
      { rootMargin: '200px' },
    );
    this.#visibility.observe(this);
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.#onMessage);
    this.#visibility?.disconnect();
    this.#visibility = null;
    this.#themeWatch?.disconnect();
    this.#themeWatch = null;
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    if (!this.#iframe || old === value) return;
    if (name === 'src' || name === 'autoplay') {
      this.#iframe.remove();
      this.#iframe = null;
      this.#render();
    } else if (name === 'theme') {
      this.#syncTheme();
    } else if (name === 'step' && value !== null && /^\d+$/.test(value)) {
      this.goTo(Number(value));
    } else if (name === 'views') {
      const views = (value ?? '').split(',').filter(isView);
      if (views.length) this.setViews(views);
    } else if (name === 'level' && isLevel(value)) {
      this.#post({ type: 'level', level: value });
    } else if (name === 'scenario' && isScenario(value)) {
      this.load(value);
    }
  }

  goTo(step: number): void {
    this.#post({ type: 'goto', step });
  }

  load(scenario: string, step?: number): void {
    this.#post(step === undefined ? { type: 'load', scenario } : { type: 'load', scenario, step });
  }

  injectFault(fault: string, params?: Record<string, unknown>): void {
    this.#post(params ? { type: 'inject', fault, params } : { type: 'inject', fault });
  }

  setViews(views: EmbedView[]): void {
    this.#post({ type: 'views', views });
  }

  #theme(): Theme {
    const t = this.getAttribute('theme');
    if (t === 'host') return hostTheme();
    return isTheme(t) ? t : 'auto';
  }

  #syncTheme(): void {
    this.#post({ type: 'theme', theme: this.#theme() });
    const follow = this.getAttribute('theme') === 'host';
    if (follow && !this.#themeWatch) {
      this.#themeWatch = new MutationObserver(() =>
        this.#post({ type: 'theme', theme: hostTheme() }),
      );
      const opts = {
        attributes: true,
        attributeFilter: ['class', 'data-theme', 'data-md-color-scheme'],
      };
      this.#themeWatch.observe(document.documentElement, opts);
      if (document.body) this.#themeWatch.observe(document.body, opts);
    } else if (!follow) {
      this.#themeWatch?.disconnect();
      this.#themeWatch = null;
    }
  }

  #render(): void {
    const { url: src, problem } = embedSrc(this.getAttribute('src'), SCRIPT_URL);
    this.#root.querySelector('.problem')?.remove();
    if (problem !== null) {
      console.warn(`<cni-sim>: ${problem}`);
      const p = document.createElement('p');
      p.className = 'problem';
      p.setAttribute('role', 'status');
      p.textContent = `cnisim: ${problem}`;
      this.#root.append(p);
    }
    const step = this.getAttribute('step');
    const level = this.getAttribute('level');
    const scenario = this.getAttribute('scenario') ?? 'sandbox';
    const views = (this.getAttribute('views') ?? '').split(',').filter(isView);
    src.search = paramsQuery({
      scenario: isScenario(scenario) ? scenario : 'sandbox',
      step: step !== null && /^\d+$/.test(step) ? Number(step) : null,
      ...(views.length ? { views } : {}),
      theme: this.#theme(),
      level: isLevel(level) ? level : null,
      autoplay: this.hasAttribute('autoplay') && this.getAttribute('autoplay') !== 'false',
      origin: location.origin,
    });
    this.#origin = src.origin;
    const iframe = document.createElement('iframe');
    iframe.title = this.getAttribute('title') ?? 'cnisim: Kubernetes pod networking, step by step';
    iframe.loading = 'lazy';
    iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-popups');
    iframe.src = src.href;
    this.#iframe = iframe;
    this.#root.querySelector('.placeholder')?.remove();
    this.#root.append(iframe);
    if (this.getAttribute('theme') === 'host') this.#syncTheme();
  }

  #post(m: Body<HostMessage>): void {
    this.#iframe?.contentWindow?.postMessage({ cnisim: PROTOCOL, ...m }, this.#origin);
  }

  #message(e: MessageEvent): void {
    if (!this.#iframe || e.source !== this.#iframe.contentWindow || e.origin !== this.#origin)
      return;
    const m = parseEmbedMessage(e.data);
    if (!m) return;
    switch (m.type) {
      case 'height':
        this.#iframe.style.height = `${Math.max(120, Math.min(m.height, 4000))}px`;
        return;
      case 'ready':
      case 'step':
        this.#step = m.step;
        this.#length = m.length;
        this.dispatchEvent(
          new CustomEvent(`cni-sim:${m.type}`, { detail: { step: m.step, length: m.length } }),
        );
        return;
      case 'solved':
        this.dispatchEvent(new CustomEvent('cni-sim:solved', { detail: { lesson: m.lesson } }));
        return;
      case 'error':
        this.dispatchEvent(new CustomEvent('cni-sim:error', { detail: { message: m.message } }));
        return;
    }
  }
}

if (!customElements.get(TAG)) customElements.define(TAG, CniSimElement);
