import { describe, expect, it } from 'vitest';
import type { ClusterSpec } from '../cluster/cluster';
import { newSandbox } from './index';
import { actionProblems, loadJob, parseSavedSession, serializeSession } from './serialize';
import { Session, drain } from './session';
import { afterAction, newTermState, tryLine, type TermState } from './terminal';

const ONE_NODE: ClusterSpec = { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] };

function running(): Session {
  const s = newSandbox({ cluster: ONE_NODE, seed: 2 });
  expect(s.runUntil({ kind: 'pod-running', pod: 'web-0' })).not.toBeNull();
  return s;
}

/** Types a line as the app's terminal does: reads answer at once, changes are performed. */
function type(s: Session, t: TermState, line: string): { t: TermState; output: string } {
  const o = tryLine(s, 'node-1', line, t);
  if (o.kind === 'read') return { t: o.state, output: o.result.output };
  const r = s.perform(o.action);
  return { t: afterAction(t, line, r.output?.shell), output: r.output?.shell?.output ?? '' };
}

describe('a terminal on a session', () => {
  it('answers reads at the cursor without a step or an action', () => {
    const s = running();
    const events = s.events.length;
    const actions = s.actions.length;
    const t = newTermState();
    const ls = tryLine(s, 'node-1', 'ls /var/lib/cni/results', t);
    expect(ls.kind).toBe('read');
    if (ls.kind !== 'read') return;
    expect(ls.result.output).toMatch(/^cni-loopback-([0-9a-f]{64})-lo\ncontainerd-net-\1-eth0\n$/);
    const j = tryLine(s, 'node-1', 'journalctl -u containerd | grep -ci sandbox', t);
    expect(j.kind).toBe('read');
    if (j.kind === 'read') expect(Number(j.result.stdout)).toBeGreaterThan(0);
    expect(s.events).toHaveLength(events);
    expect(s.actions).toHaveLength(actions);
  });

  it('reads the world as it was at the cursor, after stepping back', () => {
    const s = running();
    const at = s.cursor;
    s.seek(s.start);
    const early = tryLine(s, 'node-1', 'ls /var/lib/cni/results', newTermState());
    expect(early.kind === 'read' && early.result.output).toBe(
      "ls: cannot access '/var/lib/cni/results': No such file or directory\n",
    );
    s.seek(at);
    const late = tryLine(s, 'node-1', 'ls /var/lib/cni/results', newTermState());
    expect(late.kind === 'read' && late.result.exitCode).toBe(0);
  });

  it('keeps the directory, variables, $? and history between lines', () => {
    const s = running();
    let t = newTermState();
    ({ t } = type(s, t, 'cd /var/lib/cni/results'));
    expect(t.shell.cwd).toBe('/var/lib/cni/results');
    ({ t } = type(s, t, 'N=containerd-net; export M=eth0'));
    let out: string;
    ({ t, output: out } = type(s, t, 'ls | grep -c "$N.*$M"'));
    expect(out).toBe('1\n');
    ({ t } = type(s, t, 'cat missing'));
    ({ t, output: out } = type(s, t, 'echo $?'));
    expect(out).toBe('1\n');
    ({ output: out } = type(s, t, 'history'));
    expect(out).toBe(
      [
        '    1  cd /var/lib/cni/results',
        '    2  N=containerd-net; export M=eth0',
        '    3  ls | grep -c "$N.*$M"',
        '    4  cat missing',
        '    5  echo $?',
        '    6  history',
        '',
      ].join('\n'),
    );
  });

  it('makes a changing line an action of the log, with the session it continues', () => {
    const s = running();
    let t = newTermState();
    ({ t } = type(s, t, 'cd /var/lib/cni/results'));
    const events = s.events.length;
    const o = tryLine(s, 'node-1', 'echo garbage > containerd-net-*', t);
    expect(o.kind).toBe('change');
    if (o.kind !== 'change') return;
    expect(o.action).toEqual({
      do: 'shell',
      node: 'node-1',
      line: 'echo garbage > containerd-net-*',
      cwd: '/var/lib/cni/results',
      // The default environment (PWD follows cwd) is left out.
      vars: { OLDPWD: '/root' },
      tty: true,
    });
    const r = s.perform(o.action);
    expect(s.events.length).toBe(events + 1);
    expect(s.events[r.first!]!.summary).toBe("echo garbage > 'containerd-net-*'");
    t = afterAction(t, o.action.line, r.output?.shell);
    expect(type(s, t, 'cat containerd-net-*').output).toBe('garbage\n');
  });

  it('a conflist written with a here-document, as CNI tutorials do, is one step that replays', () => {
    const s = running();
    let t = newTermState();
    const text = [
      'NET=mynet; cat <<EOF > /etc/cni/net.d/99-mynet.conflist',
      '{',
      '  "cniVersion": "1.0.0",',
      '  "name": "$NET",',
      '  "plugins": [{ "type": "loopback" }]',
      '}',
      'EOF',
    ].join('\n');
    const events = s.events.length;
    const o = tryLine(s, 'node-1', text, t);
    expect(o.kind).toBe('change');
    if (o.kind !== 'change') return;
    const r = s.perform(o.action);
    // Its step (then containerd seeing the new file) is named by the command, not its body.
    expect(r.first).toBe(events);
    expect(s.events[r.first!]!.summary).toBe('cat <<EOF > /etc/cni/net.d/99-mynet.conflist');
    t = afterAction(t, o.action.line, r.output?.shell);
    const want =
      '{\n  "cniVersion": "1.0.0",\n  "name": "mynet",\n  "plugins": [{ "type": "loopback" }]\n}\n';
    expect(type(s, t, 'cat /etc/cni/net.d/99-mynet.conflist').output).toBe(want);
    // Saved and reopened, the action runs the same text again.
    const parsed = parseSavedSession(JSON.parse(serializeSession(s)));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const again = newSandbox({ cluster: ONE_NODE, seed: 2 });
    const report = drain(loadJob(again, parsed.saved));
    expect(report.warnings).toEqual([]);
    expect(type(again, newTermState(), 'cat /etc/cni/net.d/99-mynet.conflist').output).toBe(want);
  });

  it('a corrupted cache file makes the next DEL fail, as the corrupted-cache fault does', () => {
    const s = running();
    let t = newTermState();
    ({ t } = type(s, t, 'echo garbage > /var/lib/cni/results/containerd-net-*'));
    ({ t } = type(s, t, 'kubectl delete pod web-0'));
    expect(s.actions.at(-1)!.action).toMatchObject({
      do: 'shell',
      line: 'kubectl delete pod web-0',
    });
    const until = s.stateAt(s.cursor).clock + 30_000_000;
    s.runUntil({ kind: 'predicate', test: (_e, _i, state) => state.clock >= until });
    const { output } = type(s, t, 'kubectl describe pod web-0');
    expect(output).toMatch(/FailedKillPod/);
    expect(output).toContain('failed to get network \\"containerd-net\\" cached result');
    expect(type(s, t, 'kubectl get pods').output).toMatch(/web-0\s+0\/1\s+Terminating/);
  });

  it('replays a saved session with its terminal lines to the same trace', () => {
    const s = running();
    let t = newTermState();
    ({ t } = type(s, t, 'cd /etc/cni/net.d; X=99-extra.conf'));
    ({ t } = type(s, t, 'cp 10-containerd-net.conflist $X && false'));
    ({ t } = type(s, t, 'echo "status was $?" > /tmp/status'));
    expect(type(s, t, 'cat /tmp/status').output).toBe('status was 1\n');
    const saved = parseSavedSession(serializeSession(s));
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    const copy = new Session({ cluster: ONE_NODE });
    const report = drain(loadJob(copy, saved.saved));
    expect(report.warnings).toEqual([]);
    expect(copy.events.map((e) => e.summary)).toEqual(s.events.map((e) => e.summary));
    expect(type(copy, newTermState(), 'cat /tmp/status; ls /etc/cni/net.d').output).toBe(
      'status was 1\n10-containerd-net.conflist  99-extra.conf\n',
    );
  });

  it('restarting a daemon is a change even though the shell itself writes nothing', () => {
    const s = running();
    const o = tryLine(s, 'node-1', 'systemctl restart containerd', newTermState());
    expect(o.kind).toBe('change');
    expect(tryLine(s, 'node-1', 'systemctl status containerd', newTermState()).kind).toBe('read');
  });

  it('exit ends the session: the next line starts in /root again', () => {
    const s = running();
    let t = newTermState();
    ({ t } = type(s, t, 'cd /tmp; X=1'));
    ({ t } = type(s, t, 'exit 3'));
    expect(t.shell.cwd).toBe('/root');
    expect(t.shell.vars).toEqual({});
    expect(type(s, t, 'echo $?').output).toBe('3\n');
  });

  it('a saved shell action with a malformed session is refused, saying where', () => {
    const line = { do: 'shell', node: 'node-1', line: 'ls' };
    expect(actionProblems({ ...line, cwd: '/tmp', env: { X: '1' }, status: 1 })).toEqual([]);
    expect(actionProblems({ ...line, env: { 'A B': '1' } })).not.toEqual([]);
    expect(actionProblems({ ...line, cwd: 'tmp' })).not.toEqual([]);
    expect(actionProblems({ ...line, status: 300 })).not.toEqual([]);
  });
});
