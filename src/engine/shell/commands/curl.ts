/**
 * `curl` (curl 7.88.1, Debian 12; messages checked against it in throwaway netns) to an `http://ADDRESS[:PORT]/` URL: a TCP connection walked
 * through the kernels (dataplane/net.ts `tcpSessionInSim`: the handshake, then the close from
 * both ends, so conntrack keeps the entry in TIME_WAIT [ASSURED] as after a real curl), then what
 * the listener (`nc -l`) sends.
 * A response that is not HTTP is refused as curl 7.88 does ("Received HTTP/0.9 when not
 * allowed"); an HTTP response prints its body. The progress meter is not drawn.
 *
 * Supported: curl [-s] [-S] [-m SECONDS] [--connect-timeout SECONDS] [-o /dev/null] URL.
 * Exit codes: 0, 1 (HTTP/0.9), 7 (refused, no route, unreachable), 28 (timed out), 52 (empty
 * reply), 3 (bad URL).
 */
import { tcpSessionInSim } from '../../dataplane/net';
import { parseIP } from '../../net/ip';
import type { CommandContext, CommandSpec } from '../types';

export function curlCmd(ctx: CommandContext): number {
  const a = ctx.argv.slice(1);
  let silent = false;
  let showErr = false;
  let maxTime: number | null = null;
  let url: string | undefined;
  let discard = false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x === '-s' || x === '--silent') silent = true;
    else if (x === '-S' || x === '--show-error') showErr = true;
    else if (x === '-sS' || x === '-Ss') silent = showErr = true;
    else if (x === '-m' || x === '--max-time' || x === '--connect-timeout')
      maxTime = Number(a[++i]);
    else if (x === '-o') discard = a[++i] === '/dev/null';
    else if (!x.startsWith('-')) url = x;
    else {
      ctx.err(
        `curl: option ${x}: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n`,
      );
      return 2;
    }
  }
  const say = (code: number, text: string): number => {
    if (!silent || showErr) ctx.err(`curl: (${code}) ${text}\n`);
    return code;
  };
  if (!url) {
    ctx.err(
      "curl: no URL specified!\ncurl: try 'curl --help' or 'curl --manual' for more information\n",
    );
    return 2;
  }
  const m = /^(?:http:\/\/)?([0-9.]+)(?::(\d+))?(\/.*)?$/.exec(url);
  if (!m || !parseIP(m[1]!)) return say(3, `URL using bad/illegal format or missing URL`);
  const host = m[1]!;
  const port = m[2] ? Number(m[2]) : 80;
  const r = ctx.outside(() =>
    tcpSessionInSim(ctx.sim, { node: ctx.nodeName, ns: ctx.netns }, host, port, {
      source: 'curl',
      sport: 40000 + (ctx.sim.events.length % 20000),
      // Without -m the kernel gives up after tcp_syn_retries (6): 127 s.
      waitS: maxTime ?? 127,
    }),
  );
  const timedOut = (sec: number) =>
    say(28, `Connection timed out after ${Math.round(sec * 1000) + 1} milliseconds`);
  const fail = (ms: number, why: string) =>
    say(7, `Failed to connect to ${host} port ${port} after ${ms} ms: ${why}`);
  switch (r.end) {
    case 'no-route':
      return fail(0, "Couldn't connect to server");
    case 'refused':
      return fail(0, "Couldn't connect to server");
    case 'unreachable':
      // A neighbour fails after 3 s of ARP probes: a shorter -m runs out first.
      if (maxTime !== null && maxTime < 3) return timedOut(maxTime);
      return fail(3000, "Couldn't connect to server");
    case 'timeout':
      return maxTime !== null ? timedOut(maxTime) : fail(130000, "Couldn't connect to server");
    default:
      break;
  }
  const body = r.response ?? '';
  if (body === '') return say(52, 'Empty reply from server');
  if (!body.startsWith('HTTP/')) return say(1, 'Received HTTP/0.9 when not allowed');
  const sep = body.search(/\r?\n\r?\n/);
  const content = sep < 0 ? '' : body.slice(sep).replace(/^\r?\n\r?\n/, '');
  if (!discard) ctx.out(content);
  return 0;
}

export const CURL_COMMANDS: readonly CommandSpec[] = [
  { name: 'curl', dir: '/usr/bin', run: curlCmd },
];
