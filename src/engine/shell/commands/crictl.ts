/** crictl (cri-tools 1.28) against containerd's CRI: pods, inspectp, ps, version. */
import { releaseOf } from '../../runtime/releases';
import { crioReleaseOf } from '../../runtime/crio-releases';
import type { SandboxRec } from '../../state/containerd';
import { rfc3339Nano } from '../../trace/time';
import { tabwrite } from '../tabwriter';
import type { CommandContext } from '../types';
import { CONTAINERD_SOCK, now, PAUSE_IMAGE, unitsHumanDuration } from './k8s-common';
import { tget, tvalues } from '../../state/table';

function logrusFatal(ctx: CommandContext, msg: string): number {
  ctx.err(
    ctx.isatty
      ? `FATA[0000] ${msg.padEnd(44)} \n`
      : `time="${rfc3339Nano(now(ctx)).replace(/\.\d+Z$/, 'Z')}" level=fatal msg=${JSON.stringify(msg)}\n`,
  );
  return 1;
}

/** containerd's CRI socket: the sandboxes, or why crictl cannot connect. */
function criSandboxes(ctx: CommandContext): SandboxRec[] | number {
  const c = ctx.sim.state.nodes[ctx.nodeName]?.containerd;
  if (!c || !c.up) {
    const why = c ? 'connection refused' : 'no such file or directory';
    return logrusFatal(
      ctx,
      `validate service connection: validate CRI v1 runtime API for endpoint "unix://${CONTAINERD_SOCK}": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix ${CONTAINERD_SOCK}: connect: ${why}"`,
    );
  }
  return tvalues(c.sandboxes).sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
}

function sandboxState(s: SandboxRec): string {
  return s.state === 'SANDBOX_READY' ? 'Ready' : 'NotReady';
}

function crictlPods(ctx: CommandContext, args: string[]): number {
  let quiet = false;
  let name: RegExp | null = null;
  let namespace: RegExp | null = null;
  let state: string | null = null;
  let id: string | null = null;
  let last: number | null = null;
  let latest = false;
  for (let i = 0; i < args.length; i++) {
    let a = args[i]!;
    let val: string | undefined;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) {
      val = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const take = () => val ?? args[++i] ?? '';
    if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '--name') name = new RegExp(take());
    else if (a === '--namespace') namespace = new RegExp(take());
    else if (a === '-s' || a === '--state') state = take().toLowerCase();
    else if (a === '--id') id = take();
    else if (a === '--last') last = Number(take());
    else if (a === '-l' || a === '--latest') latest = true;
    else if (a === '-v' || a === '--verbose' || a === '-o' || a === '--output' || a === '--label') {
      ctx.err(`crictl: cnisim: crictl pods ${a} is not supported\n`);
      return 1;
    } else if (a === '--no-trunc') continue;
    else {
      ctx.err(`Incorrect Usage: flag provided but not defined: -${a.replace(/^-+/, '')}\n`);
      return 1;
    }
  }
  const sbs = criSandboxes(ctx);
  if (typeof sbs === 'number') return sbs;
  let list = sbs.filter(
    (s) =>
      (!name || name.test(s.pod.name)) &&
      (!namespace || namespace.test(s.pod.namespace)) &&
      (!state || (state === 'ready') === (s.state === 'SANDBOX_READY')) &&
      (!id || s.id.startsWith(id)),
  );
  if (latest) list = list.slice(0, 1);
  if (last !== null && last > 0) list = list.slice(0, last);
  if (quiet) {
    ctx.out(list.map((s) => s.id + '\n').join(''));
    return 0;
  }
  const noTrunc = args.includes('--no-trunc');
  let text = 'POD ID\tCREATED\tSTATE\tNAME\tNAMESPACE\tATTEMPT\tRUNTIME\n';
  for (const s of list) {
    text += `${noTrunc ? s.id : s.id.slice(0, 13)}\t${unitsHumanDuration(now(ctx) - s.createdAt)} ago\t${sandboxState(s)}\t${s.pod.name}\t${s.pod.namespace}\t${s.pod.attempt}\t(default)\n`;
  }
  ctx.out(tabwrite(text, { minwidth: 20, padding: 3 }));
  return 0;
}

/** Go's json.MarshalIndent(v, "", "  ") layout of a plain value (keys in the given order). */
function indentJson(v: unknown, depth = 0): string {
  const pad = '  '.repeat(depth + 1);
  const end = '  '.repeat(depth);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => pad + indentJson(x, depth + 1)).join(',\n')}\n${end}]`;
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, x]) => `${pad}${JSON.stringify(k)}: ${indentJson(x, depth + 1)}`).join(',\n')}\n${end}}`;
  }
  return JSON.stringify(v);
}

function crictlInspectp(ctx: CommandContext, args: string[]): number {
  const ids = args.filter((a) => !a.startsWith('-'));
  if (args.some((a) => a.startsWith('-') && a !== '--output=json' && a !== '-o' && a !== 'json')) {
    const bad = args.find((a) => a.startsWith('-'))!;
    if (bad !== '-o') {
      ctx.err(`crictl: cnisim: crictl inspectp ${bad} is not supported (JSON output only)\n`);
      return 1;
    }
  }
  const real = ids.filter((a) => a !== 'json');
  if (real.length === 0) return logrusFatal(ctx, 'ID cannot be empty');
  const sbs = criSandboxes(ctx);
  if (typeof sbs === 'number') return sbs;
  const k = ctx.kernel();
  let status = 0;
  for (const want of real) {
    const matches = sbs.filter((s) => s.id.startsWith(want));
    if (matches.length !== 1) {
      const e =
        matches.length === 0
          ? `getting the pod sandbox status for "${want}": rpc error: code = NotFound desc = an error occurred when try to find sandbox: not found`
          : `getting the pod sandbox status for "${want}": rpc error: code = NotFound desc = an error occurred when try to find sandbox "${want}": multiple IDs found`;
      status = logrusFatal(ctx, e);
      break;
    }
    const s = matches[0]!;
    const closed = !tget(k.mounts, s.netns);
    const ready = s.state === 'SANDBOX_READY';
    const obj = {
      status: {
        id: s.id,
        metadata: {
          attempt: s.pod.attempt,
          name: s.pod.name,
          namespace: s.pod.namespace,
          uid: s.pod.uid,
        },
        state: s.state,
        createdAt: rfc3339Nano(s.createdAt),
        network: {
          additionalIps: ready && !closed ? s.additionalIps.map((ip) => ({ ip })) : [],
          ip: ready && !closed ? s.ip : '',
        },
        linux: {
          namespaces: {
            options: {
              ipc: 'POD',
              network: 'POD',
              pid: 'CONTAINER',
              targetId: '',
              userNsOptions: null,
            },
          },
        },
        labels: {
          'io.kubernetes.pod.name': s.pod.name,
          'io.kubernetes.pod.namespace': s.pod.namespace,
          'io.kubernetes.pod.uid': s.pod.uid,
        },
        annotations: {},
        runtimeHandler: '',
      },
      info: {
        processStatus: s.pauseRunning ? 'running' : 'deleted',
        netNamespaceClosed: closed,
        image: PAUSE_IMAGE,
        snapshotKey: s.id,
        snapshotter: 'overlayfs',
        runtimeHandler: '',
        runtimeType: 'io.containerd.runc.v2',
        config: {
          metadata: {
            name: s.pod.name,
            uid: s.pod.uid,
            namespace: s.pod.namespace,
            attempt: s.pod.attempt,
          },
        },
        runtimeSpec: {
          linux: {
            namespaces: [
              { type: 'pid' },
              { type: 'ipc' },
              { type: 'uts' },
              { type: 'mount' },
              { type: 'network', path: s.netns },
            ],
          },
        },
      },
    };
    ctx.out(indentJson(obj) + '\n');
  }
  return status;
}

const CRICTL_COMMANDS = ['pods', 'inspectp', 'ps', 'version', 'help'];

export function crictl(ctx: CommandContext): number {
  const args = ctx.argv.slice(1).filter((a) => !/^--(runtime|image)-endpoint=/.test(a));
  const [cmd, ...rest] = args;
  if (cmd === undefined || cmd === 'help' || cmd === '-h' || cmd === '--help') {
    ctx.out(
      'NAME:\n   crictl - client for CRI\n\nUSAGE:\n   crictl [global options] command [command options] [arguments...]\n\nCOMMANDS (simulated):\n   inspectp  Display the status of one or more pods\n   pods      List pods\n   ps        List containers\n   version   Display runtime version information\n',
    );
    return 0;
  }
  switch (cmd) {
    case 'pods':
      return crictlPods(ctx, rest);
    case 'inspectp':
      return crictlInspectp(ctx, rest);
    case 'ps': {
      const sbs = criSandboxes(ctx);
      if (typeof sbs === 'number') return sbs;
      if (rest.includes('-q') || rest.includes('--quiet')) return 0;
      ctx.out(
        tabwrite('CONTAINER\tIMAGE\tCREATED\tSTATE\tNAME\tATTEMPT\tPOD ID\tPOD\n', {
          minwidth: 20,
          padding: 3,
        }),
      );
      ctx.err('cnisim: containers are not modelled, only pod sandboxes: see crictl pods\n');
      return 0;
    }
    case 'version': {
      const sbs = criSandboxes(ctx);
      if (typeof sbs === 'number') return sbs;
      const c = ctx.sim.state.nodes[ctx.nodeName]!.containerd!;
      // CRI-O's Version (server/version.go): RuntimeName "cri-o", its version without a "v".
      ctx.out(
        c.settings.runtime === 'cri-o'
          ? `Version:  0.1.0\nRuntimeName:  cri-o\nRuntimeVersion:  ${crioReleaseOf(c.settings.version).version}\nRuntimeApiVersion:  v1\n`
          : `Version:  0.1.0\nRuntimeName:  containerd\nRuntimeVersion:  v${releaseOf(c.settings).version}\nRuntimeApiVersion:  v1\n`,
      );
      return 0;
    }
    default:
      if (CRICTL_COMMANDS.includes(cmd)) return 0;
      if (/^[a-z]+$/.test(cmd)) {
        ctx.err(`cnisim: crictl ${cmd}: not simulated (pods, inspectp, ps, version)\n`);
        return 1;
      }
      ctx.err(`Incorrect Usage: flag provided but not defined: -${cmd.replace(/^-+/, '')}\n`);
      return 1;
  }
}
