/**
 * hostname (Debian's hostname 3.23): the node's name, which the kubelet also takes as the
 * Kubernetes node name, and `-I`, every address of the namespace's interfaces. Setting the name
 * is not simulated.
 */
import { linksOf, nsById } from '../../kernel/kernel';
import type { CommandContext, CommandSpec } from '../types';

const USAGE = `Usage: hostname [-b] {hostname|-F file}         set host name (from file)
       hostname [-a|-A|-d|-f|-i|-I|-s|-y]       display formatted name
       hostname                                 display host name

       {yp,nis,}domainname {nisdomain|-F file}  set NIS domain name (from file)
       {yp,nis,}domainname                      display NIS domain name

       dnsdomainname                            display dns domain name

       hostname -V|--version|-h|--help          print info and exit

Program name:
       {yp,nis,}domainname=hostname -y
       dnsdomainname=hostname -d

Program options:
    -a, --alias            alias names
    -A, --all-fqdns        all long host names (FQDNs)
    -b, --boot             set default hostname if none available
    -d, --domain           DNS domain name
    -f, --fqdn, --long     long host name (FQDN)
    -F, --file             read host name or NIS domain name from given file
    -i, --ip-address       addresses for the host name
    -I, --all-ip-addresses all addresses for the host
    -s, --short            short host name
    -y, --yp, --nis        NIS/YP domain name

Description:
   This command can get or set the host name or the NIS domain name. You can
   also get the DNS domain or the FQDN (fully qualified domain name).
   Unless you are using bind or NIS for host lookups you can change the
   FQDN (Fully Qualified Domain Name) and the DNS domain name (which is
   part of the FQDN) in the /etc/hosts file.
`;

const SHORT: Record<string, string> = {
  '--short': '-s',
  '--fqdn': '-f',
  '--long': '-f',
  '--domain': '-d',
  '--all-ip-addresses': '-I',
  '--help': '-h',
};

/** What getifaddrs lists, as hostname -I prints it: IPv4 first, then IPv6, no lo, no fe80::. */
function allAddresses(ctx: CommandContext): string {
  const links = linksOf(nsById(ctx.kernel(), ctx.netns)).filter((l) => l.kind !== 'loopback');
  const out: string[] = [];
  for (const family of [4, 6] as const)
    for (const l of links)
      for (const a of l.addrs)
        if (a.family === family && !a.local.startsWith('fe80:')) out.push(`${a.local} `);
  return out.join('') + '\n';
}

function hostname(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  const name = ctx.nodeName;
  if (args.length === 0) {
    ctx.out(`${name}\n`);
    return 0;
  }
  const a = SHORT[args[0]!] ?? args[0]!;
  if (!a.startsWith('-')) {
    ctx.err('cnisim: hostname: setting the host name is not simulated\n');
    return 1;
  }
  switch (a) {
    case '-s':
      ctx.out(`${name.split('.')[0]}\n`);
      return 0;
    case '-f':
      ctx.out(`${name}\n`);
      return 0;
    case '-d':
      ctx.out('\n');
      return 0;
    case '-I':
      ctx.out(allAddresses(ctx));
      return 0;
    case '-h':
      ctx.err(USAGE);
      return 0;
    default:
      ctx.err(`hostname: invalid option -- '${a.replace(/^-+/, '')[0] ?? ''}'\n${USAGE}`);
      return 255;
  }
}

export const HOSTNAME_COMMANDS: CommandSpec[] = [
  { name: 'hostname', dir: '/usr/bin', run: hostname },
];
