import { useEffect, useRef, useState } from 'react';
import { loadTerminal } from '../../engine';
import { Tabs } from '../components/Tabs';
import { get, subscribe, ui, useApp } from '../store';
import type { PanelProps } from '../panels/types';
import { onFocusRequest, takeFocusRequest } from './focus';
import { shellScope } from './scope';
import type { NodeTerminal } from './terminals';

// xterm.js and the terminals arrive in their own chunk when the Shell tab first opens.
let loading: Promise<typeof import('./terminals')> | null = null;
const loadTerminals = () =>
  (loading ??= Promise.all([import('./terminals'), loadTerminal()]).then(([m]) => m));

/** The node's shell: a terminal per node, in tabs (see terminals.ts and docs/shell.md). */
export default function ShellView({ session, step }: PanelProps) {
  const nodes = session.nodeNames;
  // A line asked for elsewhere (a recovery step's "Run") opens its node's terminal.
  const [node, setNode] = useState(() => get().shellLine?.node ?? nodes[0] ?? '');
  useEffect(
    () =>
      subscribe((st, prev) => {
        if (st.shellLine && st.shellLine !== prev.shellLine) setNode(st.shellLine.node);
      }),
    [],
  );
  const current = nodes.includes(node) ? node : (nodes[0] ?? '');
  const box = useRef<HTMLDivElement>(null);
  const [term, setTerm] = useState<NodeTerminal | null>(null);
  const [error, setError] = useState<string | null>(null);
  const scope = useApp(shellScope);
  // A node's tab clicked: the keys go to that node's terminal once it is shown (left on the tab,
  // they would reach the app's shortcuts: P, Space, 1–4 while the user types a command).
  const focusNext = useRef(false);
  const onSelect = (n: string, how: 'click' | 'keys') => {
    if (how === 'keys') return setNode(n);
    if (term && term.node === n && n === current) term.focus();
    else focusNext.current = true;
    setNode(n);
  };

  useEffect(() => {
    let live = true;
    loadTerminals().then(
      (m) => {
        if (!live || !box.current) return;
        const t = m.terminalFor(scope, current);
        t.attach(box.current);
        if (takeFocusRequest() || focusNext.current) {
          focusNext.current = false;
          t.focus();
        }
        setTerm(t);
      },
      (e: unknown) => live && setError((e as Error).message),
    );
    return () => {
      live = false;
    };
  }, [scope, current]);

  // The Shell tab clicked while the terminal is shown: the keys go to it.
  useEffect(
    () =>
      term
        ? onFocusRequest(() => {
            if (takeFocusRequest()) term.focus();
          })
        : undefined,
    [term],
  );

  // ... and is typed there once that terminal is up.
  const request = useApp((s) => s.shellLine);
  useEffect(() => {
    if (!request || !term || term.node !== request.node) return;
    ui.shellLineTaken();
    term.focus();
    term.type(`${request.line}\r`);
  }, [request, term]);

  useEffect(() => {
    if (!term || !box.current) return;
    const ro = new ResizeObserver(() => term.resize());
    ro.observe(box.current);
    const onResize = () => term.resize();
    window.addEventListener('resize', onResize);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', onResize);
    };
  }, [term]);

  return (
    <div className="shell-view">
      <p className="muted shell-help" id="shell-help">
        Runs on the node as it was at step {step + 1}. Reads change nothing; a command that changes
        the node becomes an action at this step. Esc then Tab leaves the terminal.
      </p>
      <Tabs
        label="Nodes"
        tabs={nodes.map((n) => ({ key: n, label: n }))}
        selected={current}
        onSelect={onSelect}
        className="shell-nodes"
      >
        {error !== null ? (
          <p role="alert">The terminal could not be loaded: {error}</p>
        ) : (
          <>
            {!term && <p className="muted">Loading the terminal…</p>}
            <div
              ref={box}
              className="shell-terminal"
              role="group"
              aria-label={`Shell on ${current}`}
              aria-describedby="shell-help"
              onClick={() => term?.focus()}
            />
          </>
        )}
      </Tabs>
    </div>
  );
}
