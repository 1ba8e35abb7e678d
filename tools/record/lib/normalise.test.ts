import { describe, expect, it } from 'vitest';
import { isEui64LinkLocal, ipv6Bytes, Normaliser } from './normalise';

describe('recorder normalisation', () => {
  it('parses IPv6 addresses', () => {
    expect(ipv6Bytes('fe80::1')).toEqual([0xfe, 0x80, ...new Array<number>(13).fill(0), 1]);
    expect(ipv6Bytes('not-an-ip')).toBeUndefined();
  });

  it('recognises the EUI-64 link-local address of a MAC', () => {
    expect(isEui64LinkLocal('fe80::47d:5aff:feec:d404', '06:7d:5a:ec:d4:04')).toBe(true);
    expect(isEui64LinkLocal('fe80::47d:5aff:feec:d405', '06:7d:5a:ec:d4:04')).toBe(false);
  });

  it('numbers placeholders in sorted-key document order', () => {
    const n = new Normaliser([['<dataDir>', '/tmp/x/data']], 'cnrabc123-');
    const doc = n.document({
      steps: [
        {
          state: {
            namespaces: {
              node: {
                links: [
                  {
                    name: 'veth0123abcd',
                    mac: '06:7d:5a:ec:d4:04',
                    addresses: [{ family: 'inet6', address: 'fe80::47d:5aff:feec:d404' }],
                  },
                  { name: 'cni0', mac: '0a:00:00:00:00:01', addresses: [] },
                ],
              },
            },
          },
        },
      ],
      a: '/var/run/netns/cnrabc123-pod-a /tmp/x/data/mynet 0a:00:00:00:00:01 ff:ff:ff:ff:ff:ff',
    });
    expect(doc.a).toBe('/var/run/netns/pod-a <dataDir>/mynet <mac:1> ff:ff:ff:ff:ff:ff');
    expect(JSON.stringify(doc.steps)).toBe(
      JSON.stringify([
        {
          state: {
            namespaces: {
              node: {
                links: [
                  {
                    addresses: [{ address: 'fe80::eui64(<mac:2>)', family: 'inet6' }],
                    mac: '<mac:2>',
                    name: '<veth:1>',
                  },
                  { addresses: [], mac: '<mac:1>', name: 'cni0' },
                ],
              },
            },
          },
        },
      ]),
    );
  });
});
