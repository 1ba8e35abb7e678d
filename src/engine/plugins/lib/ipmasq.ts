/** pkg/ip ipmasq: the per-container nat chain CNI-<hash> and its POSTROUTING jump. */
import { sha512 } from '@noble/hashes/sha2.js';
import { utf8Bytes } from '../../base64';
import { q } from '../../gofmt';
import { type IPNet, ipString, networkOf } from '../../net/ip';
import type { Proc } from '../../os/process';
import type { Gen } from '../../os/sys';
import { IPTables, isNotExist } from './goiptables';

function hex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** utils.MustFormatHashWithPrefix */
export function formatHashWithPrefix(length: number, prefix: string, toHash: string): string {
  return (prefix + hex(sha512(new Uint8Array(utf8Bytes(toHash))))).slice(0, length);
}

/** utils.FormatChainName: "CNI-" + sha512(name+id), 28 characters. */
export function formatChainName(name: string, id: string): string {
  return formatHashWithPrefix(28, 'CNI-', name + id);
}

/** utils.FormatComment */
export function formatComment(name: string, id: string): string {
  return `name: ${q(name)} id: ${q(id)}`;
}

/** net.IPNet.String() of the network as the plugin passes it (`ipn.String()` keeps the address). */
function ipnString(n: IPNet): string {
  return `${ipString(n.ip)}/${n.prefix}`;
}

export function* setupIPMasq(p: Proc, ipn: IPNet, chain: string, comment: string): Gen<void> {
  const isV6 = ipn.ip.v === 6;
  const ipt = new IPTables(p.sys, isV6 ? 'ipv6' : 'ipv4');
  const multicastNet = isV6 ? 'ff00::/8' : '224.0.0.0/4';
  const chains = yield* ipt.listChains('nat');
  if (!chains.includes(chain)) yield* ipt.newChain('nat', chain);
  yield* ipt.appendUnique('nat', chain, [
    '-d',
    ipnString(ipn),
    '-j',
    'ACCEPT',
    '-m',
    'comment',
    '--comment',
    comment,
  ]);
  yield* ipt.appendUnique('nat', chain, [
    '!',
    '-d',
    multicastNet,
    '-j',
    'MASQUERADE',
    '-m',
    'comment',
    '--comment',
    comment,
  ]);
  yield* ipt.appendUnique('nat', 'POSTROUTING', [
    '-s',
    ipString(ipn.ip),
    '-j',
    chain,
    '-m',
    'comment',
    '--comment',
    comment,
  ]);
}

export function* teardownIPMasq(p: Proc, ipn: IPNet, chain: string, comment: string): Gen<void> {
  const ipt = new IPTables(p.sys, ipn.ip.v === 6 ? 'ipv6' : 'ipv4');
  const tryStep = function* (g: Gen<void>): Gen<void> {
    try {
      yield* g;
    } catch (e) {
      if (!isNotExist(e)) throw e;
    }
  };
  yield* tryStep(
    ipt.delete('nat', 'POSTROUTING', [
      '-s',
      ipString(ipn.ip),
      '-j',
      chain,
      '-m',
      'comment',
      '--comment',
      comment,
    ]),
  );
  yield* tryStep(
    ipt.delete('nat', 'POSTROUTING', [
      '-s',
      ipnString(ipn),
      '-j',
      chain,
      '-m',
      'comment',
      '--comment',
      comment,
    ]),
  );
  yield* tryStep(ipt.clearChain('nat', chain));
  yield* tryStep(ipt.deleteChain('nat', chain));
}

export { networkOf };
