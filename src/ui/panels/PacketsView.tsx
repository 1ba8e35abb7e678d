import { useId, useMemo, useState } from 'react';
import { loadEngine, type Endpoint, type Hop } from '../../engine';
import { shownWalk, useApp, useWalkState, walkCmd } from '../store';
import type { PanelProps } from './types';

/** The outside: the router at the underlay's edge (docs/dataplane.md). */
const OUTSIDE = '172.18.0.1';

interface Choice {
  from: string;
  to: string;
  proto: 'icmp' | 'tcp';
  port: string;
}

function endpointKey(e: Endpoint): string {
  return `${e.node}/${e.ns}`;
}

/**
 * One hop: where, what the kernel did, the rules that matched, the conntrack entry. Choosing it
 * makes it the hop the topology highlights.
 */
function HopItem({
  h,
  i,
  reply,
  current,
}: {
  h: Hop;
  i: number;
  reply: boolean;
  current: boolean;
}) {
  return (
    <li
      className={`hop${h.drop ? ' hop-drop' : ''}${current ? ' is-current' : ''}`}
      aria-current={current ? 'step' : undefined}
    >
      <p className="hop-where">
        <button
          type="button"
          className="hop-select"
          aria-label={`Show hop ${i + 1} on the topology`}
          onClick={() => walkCmd.select(i)}
        >
          {i + 1}
        </button>{' '}
        <span className="badge">{reply ? 'reply' : 'request'}</span> {h.node}
        {h.ns ? ` · ${h.ns}` : ''}
        {h.dev ? ` · ${h.dev}` : ''} · <strong>{h.step}</strong>
        {h.hook ? ` · ${h.hook}` : ''}
      </p>
      <p>{h.text}</p>
      <p className="mono hop-packet">{h.packet}</p>
      {h.chains && h.chains.length > 0 && (
        <ul className="hop-rules" aria-label="Rules that matched">
          {h.chains.map((c, i) => (
            <li key={i} className="mono">
              {`${c.table}/${c.chain}: ${c.text}`}
            </li>
          ))}
        </ul>
      )}
      {h.conntrack && <p className="mono hop-ct">{`conntrack: ${h.conntrack}`}</p>}
    </li>
  );
}

/**
 * The packet walk: a packet from a pod (or a node) to a pod, a node IP and port, or the outside,
 * walked hop by hop through the kernels as they are at the current step, without changing them.
 */
export function PacketsView({ session, step }: PanelProps) {
  const id = useId();
  const state = session.stateAt(step);
  const engine = loadEngine.now();
  const eps = useMemo(() => engine.endpoints(state), [engine, state]);
  const [choice, setChoice] = useState<Choice>({ from: '', to: '', proto: 'icmp', port: '80' });
  const revision = useApp((s) => s.revision);
  const [error, setError] = useState<{ step: number; error: string } | null>(null);
  // A walk belongs to the step it was made at (the app's packetWalk slice: the topology draws it).
  const walkState = useWalkState((s) => s);
  const shown = shownWalk(walkState, step, revision);
  const result = shown ?? (error && error.step === step ? error : null);
  const sources = eps;
  const from =
    sources.find((e) => endpointKey(e) === choice.from) ??
    sources.find((e) => e.kind === 'pod') ??
    sources[0];
  const targets = [
    ...eps
      .filter((e) => e.ip && e !== from)
      .map((e) => ({ value: e.ip!, label: `${e.label} ${e.ip}` })),
    { value: OUTSIDE, label: `the outside (${OUTSIDE}, the underlay's router)` },
  ];
  const to = targets.find((t) => t.value === choice.to)?.value ?? targets[0]?.value ?? '';

  const walk = () => {
    if (!from) return;
    const port = Number(choice.port);
    if (choice.proto === 'tcp' && !(Number.isInteger(port) && port > 0 && port < 65536)) {
      setError({ step, error: `Port must be a number from 1 to 65535, not "${choice.port}".` });
      walkCmd.clear();
      return;
    }
    try {
      const res = engine.walkPacket(state, {
        from: { node: from.node, ns: from.ns },
        dst: to,
        proto: choice.proto,
        ...(choice.proto === 'tcp' ? { port } : {}),
      });
      const what = choice.proto === 'tcp' ? `TCP SYN to ${to}:${port}` : `ping ${to}`;
      const req = res.request;
      const text = !req.ok
        ? `${what} from ${from.label}: dropped. ${req.text}`
        : res.reply && res.reply.ok
          ? `${what} from ${from.label}: delivered, and the reply came back.`
          : res.reply && !res.reply.ok
            ? `${what} from ${from.label}: delivered, but the reply was dropped. ${res.reply.text}`
            : `${what} from ${from.label}: delivered.`;
      setError(null);
      walkCmd.show({ step, res, what: `${what} from ${from.label}`, text });
    } catch (e) {
      walkCmd.clear();
      setError({ step, error: e instanceof Error ? e.message : String(e) });
    }
  };

  if (eps.length === 0) return <p className="muted">No node at this step.</p>;
  return (
    <div className="packets">
      <p className="muted">
        Walk one packet through the kernels as they are at this step (nothing changes; to send a
        packet for real, use ping or curl in the Shell).
      </p>
      <form
        className="packet-form"
        onSubmit={(e) => {
          e.preventDefault();
          walk();
        }}
      >
        <label htmlFor={`${id}-from`}>Packet source</label>
        <select
          id={`${id}-from`}
          value={from ? endpointKey(from) : ''}
          onChange={(e) => setChoice({ ...choice, from: e.target.value })}
        >
          {sources.map((e) => (
            <option key={endpointKey(e)} value={endpointKey(e)}>
              {e.label}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-to`}>Packet destination</label>
        <select
          id={`${id}-to`}
          value={to}
          onChange={(e) => setChoice({ ...choice, to: e.target.value })}
        >
          {targets.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-proto`}>Protocol</label>
        <select
          id={`${id}-proto`}
          value={choice.proto}
          onChange={(e) => setChoice({ ...choice, proto: e.target.value as Choice['proto'] })}
        >
          <option value="icmp">ICMP echo (ping)</option>
          <option value="tcp">TCP SYN (curl)</option>
        </select>
        {choice.proto === 'tcp' && (
          <>
            <label htmlFor={`${id}-port`}>Port</label>
            <input
              id={`${id}-port`}
              inputMode="numeric"
              value={choice.port}
              onChange={(e) => setChoice({ ...choice, port: e.target.value })}
            />
          </>
        )}
        <button type="submit">Walk the packet</button>
      </form>
      <div role="status" aria-live="polite">
        {result && 'error' in result && <p className="error">{result.error}</p>}
        {result && 'res' in result && <p className="packet-verdict">{result.text}</p>}
        {result && 'res' in result && result.res.hops.length > 0 && (
          <p className="muted">
            The Topology view draws hop {walkState.hop + 1} of {result.res.hops.length}: step
            through them there, or choose a hop&apos;s number below.
          </p>
        )}
      </div>
      {result && 'res' in result && (
        <ol className="hops" aria-label="Hops">
          {result.res.hops.map((h, i) => (
            <HopItem
              key={i}
              h={h}
              i={i}
              reply={i >= result.res.replyFrom}
              current={i === walkState.hop}
            />
          ))}
        </ol>
      )}
    </div>
  );
}
