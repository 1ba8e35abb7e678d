/**
 * kubectl (1.32): get pods / nodes / events, describe pod and delete pod, from the API server's
 * objects.
 */
import { crioReleaseOf } from '../../runtime/crio-releases';
import { releaseOf } from '../../runtime/releases';
import type { ApiState, PodObj } from '../../state/api';
import { BASE_TIME_MS, klogTime } from '../../trace/time';
import { tabwrite } from '../tabwriter';
import type { CommandContext } from '../types';
import { tget, tvalues } from '../../state/table';
import { DAYS, humanDuration, KUBELET_VERSION, MONTHS, now, p2, wall } from './k8s-common';

function noApiServer(ctx: CommandContext): number {
  const t = klogTime(now(ctx));
  const pid = String(ctx.sim.state.nextPid).padStart(7);
  const line = `E${t} ${pid} memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \\"http://localhost:8080/api?timeout=32s\\": dial tcp 127.0.0.1:8080: connect: connection refused"\n`;
  ctx.err(
    line.repeat(5) +
      'The connection to the server localhost:8080 was refused - did you specify the right host or port?\n',
  );
  return 1;
}

interface KubectlArgs {
  positional: string[];
  namespace: string;
  allNamespaces: boolean;
  output: string | null;
}

function kubectlArgs(ctx: CommandContext, args: string[]): KubectlArgs | number {
  const o: KubectlArgs = {
    positional: [],
    namespace: 'default',
    allNamespaces: false,
    output: null,
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (flag: string): string | null => {
      if (a.startsWith(flag + '=')) return a.slice(flag.length + 1);
      const v = args[i + 1];
      if (v === undefined) {
        ctx.err(
          `error: flag needs an argument: ${flag.startsWith('--') ? `--${flag.slice(2)}` : `'${flag.slice(1)}' in ${flag}`}\nSee 'kubectl ${args[0] ?? ''} --help' for usage.\n`,
        );
        return null;
      }
      i++;
      return v;
    };
    if (a === '-A' || a === '--all-namespaces') o.allNamespaces = true;
    else if (a === '-n' || a === '--namespace' || a.startsWith('--namespace=')) {
      const v = value(a.startsWith('--') ? '--namespace' : '-n');
      if (v === null) return 1;
      o.namespace = v;
    } else if (/^-n./.test(a)) o.namespace = a.slice(2);
    else if (a === '-o' || a === '--output' || a.startsWith('--output=')) {
      const v = value(a.startsWith('--') ? '--output' : '-o');
      if (v === null) return 1;
      o.output = v;
    } else if (/^-o./.test(a)) o.output = a.slice(2);
    else if (a === '-w' || a === '--watch') {
      ctx.err('kubectl: cnisim: --watch is not supported: a command here cannot run forever\n');
      return 1;
    } else if (a.startsWith('-')) {
      ctx.err(`error: unknown flag: ${a}\nSee 'kubectl --help' for usage.\n`);
      return 1;
    } else o.positional.push(a);
  }
  if (o.output !== null && o.output !== 'wide' && o.output !== 'name') {
    ctx.err(`kubectl: cnisim: -o ${o.output} is not supported (wide, name)\n`);
    return 1;
  }
  return o;
}

const RESOURCES: Record<string, 'pods' | 'nodes' | 'events'> = {
  pods: 'pods',
  pod: 'pods',
  po: 'pods',
  nodes: 'nodes',
  node: 'nodes',
  no: 'nodes',
  events: 'events',
  event: 'events',
  ev: 'events',
};

function lastRestart(api: ApiState, p: PodObj): number | null {
  let t: number | null = null;
  for (const e of tvalues(api.events)) {
    if (
      e.object === `pod/${p.spec.name}` &&
      e.namespace === p.spec.namespace &&
      e.reason === 'SandboxChanged'
    )
      t = Math.max(t ?? 0, e.lastTime);
  }
  return t;
}

function podStatusText(p: PodObj): string {
  if (p.deletionTimestamp !== null) return 'Terminating';
  if (p.containerRunning) return 'Running';
  return p.waitingReason ?? p.phase;
}

function noResources(ctx: CommandContext, a: KubectlArgs): void {
  ctx.err(
    a.allNamespaces ? 'No resources found\n' : `No resources found in ${a.namespace} namespace.\n`,
  );
}

function getPods(ctx: CommandContext, api: ApiState, a: KubectlArgs, names: string[]): number {
  const t = now(ctx);
  let pods = tvalues(api.pods).filter((p) => a.allNamespaces || p.spec.namespace === a.namespace);
  let status = 0;
  if (names.length) {
    const found: PodObj[] = [];
    for (const n of names) {
      const p = pods.find((x) => x.spec.name === n && x.spec.namespace === a.namespace);
      if (!p) {
        ctx.err(`Error from server (NotFound): pods "${n}" not found\n`);
        status = 1;
      } else found.push(p);
    }
    pods = found;
    if (!pods.length) return status;
  } else {
    pods.sort((x, y) =>
      x.spec.namespace !== y.spec.namespace
        ? x.spec.namespace < y.spec.namespace
          ? -1
          : 1
        : x.spec.name < y.spec.name
          ? -1
          : x.spec.name > y.spec.name
            ? 1
            : 0,
    );
  }
  if (!pods.length) {
    noResources(ctx, a);
    return 0;
  }
  if (a.output === 'name') {
    ctx.out(pods.map((p) => `pod/${p.spec.name}\n`).join(''));
    return status;
  }
  const wide = a.output === 'wide';
  const ns = a.allNamespaces ? 'NAMESPACE\t' : '';
  let text = `${ns}NAME\tREADY\tSTATUS\tRESTARTS\tAGE${wide ? '\tIP\tNODE\tNOMINATED NODE\tREADINESS GATES' : ''}\n`;
  for (const p of pods) {
    const ready = p.containerRunning && p.deletionTimestamp === null ? '1/1' : '0/1';
    const lr = p.restarts > 0 ? lastRestart(api, p) : null;
    const restarts =
      lr !== null ? `${p.restarts} (${humanDuration(t - lr)} ago)` : String(p.restarts);
    text += `${a.allNamespaces ? p.spec.namespace + '\t' : ''}${p.spec.name}\t${ready}\t${podStatusText(p)}\t${restarts}\t${humanDuration(t - p.createdAt)}`;
    if (wide) text += `\t${p.podIP ?? '<none>'}\t${p.spec.nodeName}\t<none>\t<none>`;
    text += '\n';
  }
  ctx.out(tabwrite(text, { minwidth: 6, padding: 3 }));
  return status;
}

function getNodes(ctx: CommandContext, api: ApiState, a: KubectlArgs, names: string[]): number {
  const t = now(ctx);
  let nodes = Object.values(api.nodes).sort((x, y) => (x.name < y.name ? -1 : 1));
  let status = 0;
  if (names.length) {
    nodes = names.flatMap((n) => {
      const x = api.nodes[n];
      if (!x) {
        ctx.err(`Error from server (NotFound): nodes "${n}" not found\n`);
        status = 1;
        return [];
      }
      return [x];
    });
    if (!nodes.length) return status;
  }
  if (a.output === 'name') {
    ctx.out(nodes.map((n) => `node/${n.name}\n`).join(''));
    return status;
  }
  const wide = a.output === 'wide';
  let text = `NAME\tSTATUS\tROLES\tAGE\tVERSION${wide ? '\tINTERNAL-IP\tEXTERNAL-IP\tOS-IMAGE\tKERNEL-VERSION\tCONTAINER-RUNTIME' : ''}\n`;
  for (const n of nodes) {
    text += `${n.name}\t${n.ready.status === 'True' ? 'Ready' : 'NotReady'}\t<none>\t${humanDuration(t)}\t${KUBELET_VERSION}`;
    if (wide)
      text += `\t${internalIP(ctx, n.name)}\t<none>\tDebian GNU/Linux 12 (bookworm)\t6.1.0-28-amd64\t${runtimeOf(ctx, n.name)}`;
    text += '\n';
  }
  ctx.out(tabwrite(text, { minwidth: 6, padding: 3 }));
  return status;
}

/**
 * The node's INTERNAL-IP: without --node-ip or a cloud provider, the kubelet takes the IPv4
 * address of the interface that holds the default route (kubelet nodestatus/setters.go
 * NodeAddress, through apimachinery's net.ResolveBindAddress / ChooseHostInterface). A node
 * without a default route (the default cluster's nodes have no NIC: they are not wired to each
 * other) shows `<none>`, and describe pod's Node line ends with "/", as with an empty hostIP.
 */
function internalIP(ctx: CommandContext, node: string): string {
  const k = ctx.sim.state.nodes[node]?.kernel;
  const ns = k ? tget(k.netns, k.root) : undefined;
  if (!ns) return '<none>';
  const global4 = (l: (typeof ns.links)[number] | undefined) =>
    l?.adminUp ? l.addrs.find((a) => a.family === 4 && a.scope === 'global')?.local : undefined;
  const dflt = ns.routes.find((r) => r.family === 4 && r.prefix === 0);
  return (dflt && global4(ns.links[dflt.dev])) ?? '<none>';
}

/**
 * The node's CONTAINER-RUNTIME: the kubelet's nodeInfo.containerRuntimeVersion, its runtime's
 * CRI RuntimeName and RuntimeVersion as "name://version" (kubelet nodestatus/setters.go
 * VersionInfo; the version parsed as semver, so containerd's "v1.7.22" shows as 1.7.22).
 */
function runtimeOf(ctx: CommandContext, node: string): string {
  const c = ctx.sim.state.nodes[node]?.containerd;
  if (!c) return '<unknown>';
  return c.settings.runtime === 'cri-o'
    ? `cri-o://${crioReleaseOf(c.settings.version).version}`
    : `containerd://${releaseOf(c.settings).version}`;
}

function getEvents(ctx: CommandContext, api: ApiState, a: KubectlArgs): number {
  const t = now(ctx);
  const evs = tvalues(api.events)
    .filter((e) => a.allNamespaces || e.namespace === a.namespace)
    .map((e, i) => ({ e, i }))
    .sort((x, y) => {
      const nx = x.e.object.split('/')[1]!;
      const ny = y.e.object.split('/')[1]!;
      if (x.e.namespace !== y.e.namespace) return x.e.namespace < y.e.namespace ? -1 : 1;
      if (nx !== ny) return nx < ny ? -1 : 1;
      return x.e.firstTime - y.e.firstTime || x.i - y.i;
    })
    .map((x) => x.e);
  if (!evs.length) {
    noResources(ctx, a);
    return 0;
  }
  const wide = a.output === 'wide';
  const ns = a.allNamespaces ? 'NAMESPACE\t' : '';
  let text = wide
    ? `${ns}LAST SEEN\tTYPE\tREASON\tOBJECT\tSUBOBJECT\tSOURCE\tMESSAGE\tFIRST SEEN\tCOUNT\tNAME\n`
    : `${ns}LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n`;
  for (const e of evs) {
    const pre = a.allNamespaces ? `${e.namespace}\t` : '';
    const last = humanDuration(t - e.lastTime);
    if (wide) {
      const name = `${e.object.split('/')[1]}.${(BigInt(BASE_TIME_MS) * 1000000n + BigInt(e.firstTime) * 1000n).toString(16)}`;
      text += `${pre}${last}\t${e.type}\t${e.reason}\t${e.object}\t\t${e.source}\t${e.message}\t${humanDuration(t - e.firstTime)}\t${e.count}\t${name}\n`;
    } else text += `${pre}${last}\t${e.type}\t${e.reason}\t${e.object}\t${e.message}\n`;
  }
  ctx.out(tabwrite(text, { minwidth: 6, padding: 3 }));
  return 0;
}

const CONDITION_ORDER = [
  'PodReadyToStartContainers',
  'Initialized',
  'Ready',
  'ContainersReady',
  'PodScheduled',
];

function rfc1123z(us: number): string {
  const d = wall(us);
  return `${DAYS[d.getUTCDay()]}, ${p2(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} +0000`;
}

function describePod(ctx: CommandContext, api: ApiState, a: KubectlArgs, name: string): number {
  const p = tvalues(api.pods).find((x) => x.spec.name === name && x.spec.namespace === a.namespace);
  if (!p) {
    ctx.err(`Error from server (NotFound): pods "${name}" not found\n`);
    return 1;
  }
  const t = now(ctx);
  let w = '';
  w += `Name:\t${p.spec.name}\n`;
  w += `Namespace:\t${p.spec.namespace}\n`;
  w += 'Priority:\t0\n';
  w += 'Service Account:\tdefault\n';
  // kubectl: NodeName + "/" + status.hostIP, the node's InternalIP (empty when it has none).
  const hostIP = p.spec.nodeName ? internalIP(ctx, p.spec.nodeName) : '<none>';
  w += `Node:\t${p.spec.nodeName}/${hostIP === '<none>' ? '' : hostIP}\n`;
  w += `Start Time:\t${rfc1123z(p.createdAt)}\n`;
  w += 'Labels:\t<none>\n';
  const ann = Object.entries(p.spec.annotations).sort(([x], [y]) => (x < y ? -1 : 1));
  if (ann.length === 0) w += 'Annotations:\t<none>\n';
  else ann.forEach(([k, v], i) => (w += `${i === 0 ? 'Annotations:' : ''}\t${k}: ${v}\n`));
  if (p.deletionTimestamp !== null) {
    w += `Status:\tTerminating (lasts ${humanDuration(t - p.deletionTimestamp)})\n`;
    w += 'Termination Grace Period:\t30s\n';
  } else w += `Status:\t${p.phase}\n`;
  w += `IP:\t${p.podIP ?? ''}\n`;
  if (p.podIPs.length) {
    w += 'IPs:\n';
    for (const ip of p.podIPs) w += `  IP:\t${ip}\n`;
  } else w += 'IPs:\t<none>\n';
  w += 'Conditions:\n  Type\tStatus\n';
  const conds = [...p.conditions].sort(
    (x, y) => CONDITION_ORDER.indexOf(x.type) - CONDITION_ORDER.indexOf(y.type),
  );
  for (const c of conds) w += `  ${c.type} \t${c.status} \n`;
  w += 'Volumes:\t<none>\n';
  w += 'QoS Class:\tBestEffort\n';
  w += 'Node-Selectors:\t<none>\n';
  w += 'Tolerations:\tnode.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n';
  w += '\tnode.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n';
  const evs = tvalues(api.events).filter(
    (e) => e.object === `pod/${p.spec.name}` && e.namespace === p.spec.namespace,
  );
  if (!evs.length) w += 'Events:\t<none>\n';
  else {
    w += 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n  ----\t------\t----\t----\t-------\n';
    for (const e of [...evs].sort((x, y) => x.firstTime - y.firstTime)) {
      const interval =
        e.count > 1
          ? `${humanDuration(t - e.lastTime)} (x${e.count} over ${humanDuration(t - e.firstTime)})`
          : humanDuration(t - e.firstTime);
      w += `  ${e.type}\t${e.reason}\t${interval}\t${e.source.split(',')[0]}\t${e.message.trim()}\n`;
    }
  }
  ctx.out(tabwrite(w, { minwidth: 0, padding: 2 }));
  return 0;
}

export function kubectl(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  const verb = args[0];
  if (verb === undefined || verb === 'help' || verb === '--help' || verb === '-h') {
    ctx.out(
      'kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/\n\nCommands (simulated):\n  get pods|nodes|events [-o wide|name] [-A] [-n NAMESPACE]\n  describe pod NAME\n  delete pod NAME\n',
    );
    return 0;
  }
  if (!['get', 'describe', 'delete'].includes(verb)) {
    if (/^[a-z-]+$/.test(verb)) {
      ctx.err(`cnisim: kubectl ${verb}: not simulated (get, describe, delete)\n`);
      return 1;
    }
    ctx.err(`error: unknown command "${verb}" for "kubectl"\n`);
    return 1;
  }
  const a = kubectlArgs(ctx, args.slice(1));
  if (typeof a === 'number') return a;
  const api = ctx.sim.state.api;
  if (!api) return noApiServer(ctx);
  // TYPE NAME..., TYPE/NAME
  let [type, ...names] = a.positional;
  if (type?.includes('/')) {
    const [t0, n0] = type.split('/') as [string, string];
    type = t0;
    names = [n0, ...names];
  }
  if (type === undefined) {
    ctx.err(
      verb === 'get'
        ? 'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\nSee \'kubectl get -h\' for help and examples\n'
        : `error: You must provide one or more resources by argument or filename.\n`,
    );
    return 1;
  }
  const res = RESOURCES[type];
  if (!res) {
    ctx.err(`error: the server doesn't have a resource type "${type}"\n`);
    return 1;
  }
  if (verb === 'get') {
    if (res === 'pods') return getPods(ctx, api, a, names);
    if (res === 'nodes') return getNodes(ctx, api, a, names);
    return getEvents(ctx, api, a);
  }
  if (res !== 'pods') {
    ctx.err(`cnisim: kubectl ${verb} ${type}: not simulated (pods only)\n`);
    return 1;
  }
  if (names.length === 0) {
    ctx.err(
      verb === 'delete'
        ? 'error: resource(s) were provided, but no name was specified\n'
        : 'cnisim: kubectl describe pod: name a pod\n',
    );
    return 1;
  }
  let status = 0;
  for (const n of names) {
    if (verb === 'describe') {
      if (describePod(ctx, api, a, n) !== 0) status = 1;
      continue;
    }
    const key = `${a.namespace}/${n}`;
    if (!tget(ctx.sim.state.api?.pods, key)) {
      ctx.err(`Error from server (NotFound): pods "${n}" not found\n`);
      status = 1;
      continue;
    }
    const hooks = ctx.cluster;
    if (!hooks) return noApiServer(ctx);
    ctx.outside(() => {
      ctx.note('apiserver', 'cluster');
      hooks.deletePod(key);
    });
    ctx.out(`pod "${n}" deleted\n`);
  }
  return status;
}
