import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';

/**
 * The simulation's only source of randomness (MACs, host veth names, sandbox ids, ...).
 * Its state is plain data so that it can live inside a snapshot: the same seed and the same
 * actions always give the same values.
 */
export type RngState = readonly number[];

export function rngSeed(seed: number): RngState {
  // xoroshiro128+ needs its state mixed before its outputs look random: take it 2^64 steps on.
  const g = xoroshiro128plus(seed | 0);
  g.jump?.();
  for (let i = 0; i < 8; i++) g.next();
  return g.getState();
}

/** Draws `count` random bytes from `state`; returns them with the next state. */
export function rngBytes(state: RngState, count: number): { bytes: number[]; state: RngState } {
  const g = xoroshiro128plusFromState(state);
  const bytes: number[] = [];
  while (bytes.length < count) {
    const v = g.next() >>> 0;
    for (let i = 0; i < 4 && bytes.length < count; i++) bytes.push((v >>> (8 * i)) & 0xff);
  }
  return { bytes, state: g.getState() };
}

/** A mutable cursor over an RngState, for code that draws several values in a row. */
export class Rng {
  constructor(public state: RngState) {}
  bytes(count: number): number[] {
    const r = rngBytes(this.state, count);
    this.state = r.state;
    return r.bytes;
  }
  hex(byteCount: number): string {
    return this.bytes(byteCount)
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
  }
  /** A random locally administered unicast MAC, as the kernel's eth_hw_addr_random() makes. */
  mac(): string {
    const b = this.bytes(6);
    b[0] = ((b[0] ?? 0) & 0xfe) | 0x02;
    return b.map((x) => x.toString(16).padStart(2, '0')).join(':');
  }
  /** Integer in [0, n). */
  int(n: number): number {
    const [a = 0, b = 0, c = 0, d = 0] = this.bytes(4);
    return ((a | (b << 8) | (c << 16)) + d * 0x1000000) % n;
  }
}
