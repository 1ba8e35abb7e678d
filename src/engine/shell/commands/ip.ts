/**
 * `ip` (iproute2 6.1.0): global options, then the object. Modelled objects: link, address, route
 * (changes and listings), netns. Global options: -n/-netns NAME, -4, -6, -f/-family
 * inet|inet6, -V; display options -j, -p, -br, -o for the listings (-s and -d are refused there:
 * not modelled); -c -N -r -t -h -iec -a are accepted and change nothing. See ip-show.ts,
 * ip-link.ts, ip-addr.ts, ip-route.ts, ip-netns.ts for each object's subset.
 */
import type { CommandContext, CommandSpec } from '../types';
import { doAddr } from './ip-addr';
import {
  type Family,
  type IpRun,
  IpExit,
  lookupNetnsByName,
  matches,
  notSimulated,
} from './ip-common';
import { doLink } from './ip-link';
import { doNeigh } from './ip-neigh';
import { doNetns } from './ip-netns';
import { doRoute } from './ip-route';
import { defaultShowFlags, isShow, linkShow, routeShow } from './ip-show';
import { IP_USAGE } from './usage';

const OBJECTS = [
  'address',
  'addrlabel',
  'maddress',
  'route',
  'rule',
  'neighbor',
  'neighbour',
  'ntable',
  'ntbl',
  'link',
  'l2tp',
  'fou',
  'ila',
  'macsec',
  'tunnel',
  'tunl',
  'tuntap',
  'tap',
  'token',
  'tcpmetrics',
  'tcp_metrics',
  'monitor',
  'xfrm',
  'mroute',
  'mrule',
  'netns',
  'netconf',
  'vrf',
  'sr',
  'nexthop',
  'mptcp',
  'ioam',
  'stats',
  'help',
];

function run(ctx: CommandContext): number {
  const argv = ctx.argv.slice(1);
  const show = defaultShowFlags();
  const ip: IpRun = { ctx, ns: ctx.netns, family: 0, show };
  try {
    let i = 0;
    for (; i < argv.length; i++) {
      let opt = argv[i]!;
      if (opt === '--') {
        i++;
        break;
      }
      if (!opt.startsWith('-')) break;
      if (opt[1] === '-') opt = opt.slice(1);
      const nextArg = (): string => {
        i++;
        if (i >= argv.length)
          throw new IpExit('Command line is not complete. Try option "help"\n', 255);
        return argv[i]!;
      };
      // iproute2's order: the first pattern `opt` is a prefix of wins ("-h" is -human).
      if (matches(opt, '-loops')) nextArg();
      else if (matches(opt, '-family')) {
        const f = nextArg();
        if (f === 'inet') ip.family = 4;
        else if (f === 'inet6') ip.family = 6;
        else if (f === 'help') throw new IpExit(IP_USAGE, 255);
        else if (['link', 'bridge', 'mpls'].includes(f)) notSimulated(`family ${f}`);
        else throw new IpExit(`Error: argument "${f}" is wrong: invalid protocol family\n`, 255);
      } else if (opt === '-4') ip.family = 4 as Family;
      else if (opt === '-6') ip.family = 6 as Family;
      else if (opt === '-0' || opt === '-M' || opt === '-B') notSimulated(`option ${opt}`);
      else if (matches(opt, '-stats') || matches(opt, '-statistics')) show.stats = true;
      else if (matches(opt, '-details')) show.details = true;
      else if (
        ['-human', '-human-readable', '-iec', '-resolve', '-timestamp', '-tshort'].some((d) =>
          matches(opt, d),
        )
      )
        continue;
      else if (matches(opt, '-Version')) {
        ctx.out('ip utility, iproute2-6.1.0, libbpf 1.1.2\n');
        return 0;
      } else if (matches(opt, '-force')) continue;
      else if (matches(opt, '-batch')) notSimulated('-batch');
      else if (matches(opt, '-brief')) show.brief = true;
      else if (matches(opt, '-json')) show.json = true;
      else if (matches(opt, '-pretty')) show.pretty = true;
      else if (matches(opt, '-oneline')) show.oneline = true;
      else if (matches(opt, '-rcvbuf')) nextArg();
      else if (/^-c(olor|olour)?(=.*)?$/.test(opt) || matches(opt, '-color')) continue;
      else if (matches(opt, '-help')) throw new IpExit(IP_USAGE, 255);
      else if (matches(opt, '-netns')) {
        i++;
        const name = argv[i];
        if (name === undefined)
          throw new IpExit(
            'Cannot open network namespace "(null)": No such file or directory\n',
            255,
          );
        const r = lookupNetnsByName(ctx, name);
        if ('errno' in r) {
          if (r.errno === 'ENOENT')
            throw new IpExit(
              `Cannot open network namespace "${name}": No such file or directory\n`,
              255,
            );
          throw new IpExit(
            `setting the network namespace "${name}" failed: Invalid argument\n`,
            255,
          );
        }
        ip.ns = r.id;
      } else if (matches(opt, '-Numeric') || matches(opt, '-all')) continue;
      else throw new IpExit(`Option "${argv[i]}" is unknown, try "ip -help".\n`, 255);
    }
    const rest = argv.slice(i);
    if (rest.length === 0) throw new IpExit(IP_USAGE, 255);
    const [obj, ...args] = rest as [string, ...string[]];
    const name = OBJECTS.find((o) => matches(obj, o));
    if (!name) throw new IpExit(`Object "${obj}" is unknown, try "ip help".\n`, 1);
    switch (name) {
      case 'link':
        return isShow(args) ? linkShow(ip, args.slice(1), true) : doLink(ip, args);
      case 'address':
        return isShow(args) ? linkShow(ip, args.slice(1), false) : doAddr(ip, args);
      case 'route':
        return isShow(args) ? routeShow(ip, args.slice(1)) : doRoute(ip, args);
      case 'netns':
        return doNetns(ip, args);
      case 'neighbor':
      case 'neighbour':
        return doNeigh(ip, args);
      case 'help':
        throw new IpExit(IP_USAGE, 255);
      default:
        return notSimulated(name);
    }
  } catch (e) {
    if (e instanceof IpExit) {
      if (e.stream === 'out') ctx.out(e.text);
      else ctx.err(e.text);
      return e.code;
    }
    throw e;
  }
}

export const IP_COMMANDS: CommandSpec[] = [{ name: 'ip', dir: '/usr/sbin', run }];
