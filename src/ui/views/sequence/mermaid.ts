/**
 * Mermaid, loaded on first use (~190 KiB gzip, a lazy chunk) and set up once for the app's
 * sequence diagrams: strict security (no HTML from labels), the app's sizes. The Sequence view
 * and the lesson handout draw with it.
 */
export type MermaidApi = (typeof import('mermaid'))['default'];
let mermaidPromise: Promise<MermaidApi> | null = null;

export function loadMermaid(): Promise<MermaidApi> {
  mermaidPromise ??= import('mermaid').then(({ default: m }) => {
    m.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: 'base',
      fontFamily: 'inherit',
      themeVariables: { fontSize: '13px' },
      sequence: {
        useMaxWidth: false,
        mirrorActors: false,
        wrap: false,
        width: 110,
        height: 36,
        boxMargin: 6,
        messageMargin: 28,
        messageFontSize: 13,
        actorFontSize: 13,
        showSequenceNumbers: false,
      },
    });
    return m;
  });
  return mermaidPromise;
}
