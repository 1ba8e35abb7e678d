/**
 * containerd releases and the behaviours that change between them, as far as pod networking
 * goes. A node runs one named release (scenario field `containerd.version`); every release
 * number maps to a behaviour range, and the range decides what containerd.ts does.
 * Facts: ../shared/reference/runtime-versions.md, checked against the tags of
 * github.com/containerd/containerd (paths: 1.6/1.7 `pkg/cri/server/`, 2.x `internal/cri/server/`).
 */

/** The patch releases that exist, per minor (tags v1.6.0 – v2.3.4). */
export const KNOWN_RELEASES: ReadonlyArray<{ minor: string; last: number }> = [
  { minor: '1.6', last: 39 },
  { minor: '1.7', last: 34 },
  { minor: '2.0', last: 11 },
  { minor: '2.1', last: 9 },
  { minor: '2.2', last: 7 },
  { minor: '2.3', last: 4 },
];

/**
 * The behaviour ranges, as the runtime reference names them (runtime-versions.md).
 *
 * Newer upstream tags (1.7.31, 2.0.8, 2.1.7, 2.2.2, 2.3.0) carry containerd commit f854c18 ("fix
 * issue where cni del is never executed", PR #12923 and its backports), which makes
 * StopPodSandbox run DEL again without a stored CNI result. cnisim deliberately follows the
 * reference facts instead (recordings win, then the facts, then the source): every release from
 * 1.6.37 and 1.7.23, and every 2.x, runs no DEL without a result. Those releases are accepted and
 * fall in the ranges below.
 */
export const BEHAVIOUR_RANGES = [
  '1.6.0–1.6.8',
  '1.6.9–1.6.36',
  '1.6.37+',
  '1.7.0–1.7.22',
  '1.7.23+',
  '2.0.0',
  '2.0.1+',
] as const;
export type BehaviourRange = (typeof BEHAVIOUR_RANGES)[number];

/** The release a node runs when a scenario names none. */
export const DEFAULT_CONTAINERD_VERSION = '1.7.22';

/** `"libcni": "1.1" | "1.2"` is a shorthand for these releases. */
export const LIBCNI_SHORTHAND: Readonly<Record<'1.1' | '1.2', string>> = {
  '1.1': '1.7.22',
  '1.2': '2.0.0',
};

/**
 * How StopPodSandbox treats the network (`sandbox_stop.go`, stopSandboxContainer's caller):
 * - `always`: DEL whenever the sandbox has a netns; any DEL error fails the call
 *   (≤ 1.6.36, ≤ 1.7.22);
 * - `with-result`: DEL only when a CNI result is stored, else no DEL at all; its error fails
 *   the call (1.6.37+, 1.7.23+, every 2.x; the reference facts, also for the tags that carry
 *   f854c18: see BEHAVIOUR_RANGES).
 */
export type StopTeardown = 'always' | 'with-result';

export interface Release {
  /** As given, e.g. "1.7.22". */
  version: string;
  range: BehaviourRange;
  /** The libcni generation it vendors (1.6, 1.7: v1.1.2; 2.x: v1.2.x). */
  libcni: '1.1' | '1.2';
  /** The go-cni and libcni modules it vendors (go.mod at the tags). */
  vendors: string;
  /**
   * A failed ADD whose clean-up DEL fails too: the sandbox is kept as SANDBOX_UNKNOWN (true), or
   * the error is dropped because no CNI result was stored (`sandbox_run.go` RunPodSandbox).
   */
  keepsFailedCleanup: boolean;
  stopTeardown: StopTeardown;
  /**
   * The sandbox's metadata (with its netns) is saved before setupPodNetwork, so a restart during
   * ADD finds it (`sandbox_run.go`, `restart.go` loadSandbox): from 1.6.9.
   */
  savesBeforeSetup: boolean;
  /**
   * CRI Status runs CNI STATUS on every poll (go-cni v1.1.11 `cni.go` Status): 2.0.1+. See
   * containerd.ts statusWithCni and status.test.ts.
   */
  statusPolls: boolean;
  /**
   * libcni v1.3.0 (2.1+): a conflist's plugins may come from `<conf dir>/<network name>/*.conf`
   * too, appended after its own, unless `loadOnlyInlinedPlugins` (`libcni/conf.go`
   * NetworkConfFromFile, which go-cni's loadFromConfDir calls as ConfListFromFile).
   */
  pluginConfDir: boolean;
}

/** The go-cni and libcni modules a release vendors (go.mod and vendor/modules.txt at its tag). */
function vendors(minor: string, patch: number): string {
  switch (minor) {
    case '1.6':
      return patch <= 2
        ? 'go-cni v1.1.3, libcni v1.0.1'
        : patch === 3
          ? 'go-cni v1.1.4, libcni v1.0.1'
          : patch === 4
            ? 'go-cni v1.1.5, libcni v1.1.0'
            : 'go-cni v1.1.6, libcni v1.1.1';
    case '1.7':
      return 'go-cni v1.1.9, libcni v1.1.2';
    case '2.0':
      return patch === 0
        ? 'go-cni v1.1.10, libcni v1.2.3'
        : patch <= 2
          ? 'go-cni v1.1.11, libcni v1.2.3'
          : 'go-cni v1.1.12, libcni v1.2.3';
    case '2.1':
      return 'go-cni v1.1.12, libcni v1.3.0';
    default:
      return 'go-cni v1.1.13, libcni v1.3.0';
  }
}

export type ReleaseParse = { ok: true; release: Release } | { ok: false; error: string };

function knownList(): string {
  return KNOWN_RELEASES.map((k) => `${k.minor}.0–${k.minor}.${k.last}`).join(', ');
}

/** The message for a release number that is not one. */
export function releaseError(v: string): string {
  return `unknown containerd release "${v}": expected a release number like "1.7.22" (releases ${knownList()}; behaviour ranges ${BEHAVIOUR_RANGES.join(', ')})`;
}

function rangeOf(minor: string, patch: number): BehaviourRange {
  switch (minor) {
    case '1.6':
      return patch <= 8 ? '1.6.0–1.6.8' : patch <= 36 ? '1.6.9–1.6.36' : '1.6.37+';
    case '1.7':
      return patch <= 22 ? '1.7.0–1.7.22' : '1.7.23+';
    case '2.0':
      return patch === 0 ? '2.0.0' : '2.0.1+';
    default:
      return '2.0.1+';
  }
}

/** A release number ("1.7.22", "v2.1.0") and its behaviours, or why it is refused. */
export function parseRelease(input: string): ReleaseParse {
  const m = /^v?(\d+\.\d+)\.(\d+)$/.exec(input);
  const known = m ? KNOWN_RELEASES.find((k) => k.minor === m[1]) : undefined;
  if (!m || !known || Number(m[2]) > known.last || (m[2]!.length > 1 && m[2]!.startsWith('0')))
    return { ok: false, error: releaseError(input) };
  const minor = m[1]!;
  const patch = Number(m[2]);
  const range = rangeOf(minor, patch);
  const v1 = minor.startsWith('1.');
  const ladder: Record<BehaviourRange, StopTeardown> = {
    '1.6.0–1.6.8': 'always',
    '1.6.9–1.6.36': 'always',
    '1.6.37+': 'with-result',
    '1.7.0–1.7.22': 'always',
    '1.7.23+': 'with-result',
    '2.0.0': 'with-result',
    '2.0.1+': 'with-result',
  };
  return {
    ok: true,
    release: {
      version: `${minor}.${patch}`,
      range,
      libcni: v1 ? '1.1' : '1.2',
      vendors: vendors(minor, patch),
      keepsFailedCleanup: range === '1.6.9–1.6.36' || minor === '1.7',
      stopTeardown: ladder[range],
      savesBeforeSetup: range !== '1.6.0–1.6.8',
      statusPolls: !v1 && range !== '2.0.0',
      pluginConfDir: !v1 && minor !== '2.0',
    },
  };
}

/** The release of a node's settings (a bad number, which the schema refuses, falls back). */
export function releaseOf(settings: { version?: string; libcni: '1.1' | '1.2' }): Release {
  const r = parseRelease(settings.version ?? LIBCNI_SHORTHAND[settings.libcni]);
  if (r.ok) return r.release;
  const d = parseRelease(DEFAULT_CONTAINERD_VERSION);
  if (!d.ok) throw new Error(d.error);
  return d.release;
}
