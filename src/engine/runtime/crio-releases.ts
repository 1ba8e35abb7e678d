/**
 * CRI-O releases and the behaviours that change between them, as far as pod networking goes. A
 * node runs CRI-O with the scenario field `"runtime": {"name": "cri-o", "version": "1.31.x"}`;
 * every release number maps to a behaviour range, and the range decides what crio.ts does.
 * Facts: ../shared/reference/runtime-versions.md ("CRI-O (ocicni)"), checked against the tags of
 * github.com/cri-o/cri-o (go.mod, `internal/config/cnimgr/cnimgr.go`, `server/`) and of
 * github.com/cri-o/ocicni (`pkg/ocicni/ocicni.go`).
 */

/** The patch releases that exist, per minor (tags v1.28.0 – v1.36.3). */
export const KNOWN_CRIO_RELEASES: ReadonlyArray<{ minor: string; last: number }> = [
  { minor: '1.28', last: 11 },
  { minor: '1.29', last: 13 },
  { minor: '1.30', last: 14 },
  { minor: '1.31', last: 13 },
  { minor: '1.32', last: 13 },
  { minor: '1.33', last: 13 },
  { minor: '1.34', last: 11 },
  { minor: '1.35', last: 6 },
  { minor: '1.36', last: 3 },
];

/**
 * The behaviour ranges: 1.28 – 1.30 vendor libcni v1.1.2; 1.31 libcni v1.2.3 (still ocicni
 * v0.4.2: no STATUS, no GC); 1.32 – 1.35 ocicni v0.4.3+ (STATUS polled until ready at start, GC
 * once when CRI-O starts); 1.36 (ocicni v0.5.0) keeps polling STATUS after start-up, with a
 * grace period (crio.ts monitorPoll).
 */
export const CRIO_BEHAVIOUR_RANGES = ['1.28–1.30', '1.31', '1.32–1.35', '1.36'] as const;
export type CrioBehaviourRange = (typeof CRIO_BEHAVIOUR_RANGES)[number];

export const DEFAULT_CRIO_VERSION = '1.31.13';

export interface CrioRelease {
  /** As it runs, e.g. "1.31.13" ("1.31.x" names the newest patch of 1.31). */
  version: string;
  range: CrioBehaviourRange;
  /** The libcni generation it vendors (1.28 – 1.30: v1.1.2; 1.31+: v1.2.3 / v1.3.0). */
  libcni: '1.1' | '1.2';
  /** The ocicni and libcni modules it vendors (go.mod at the tags). */
  vendors: string;
  /**
   * CNI STATUS of the default network in the start-up poll (`cnimgr.go` pollFunc →
   * ocicni v0.4.3 `StatusWithContext` → libcni GetStatusNetworkList), and a CNI GC once the
   * plugin is ready (`cnimgr.go` doGC → ocicni `GC`; `server.go` networkGC(knownPods)): 1.32+.
   */
  statusAndGc: boolean;
  /**
   * 1.36: STATUS keeps being polled once the plugin is ready (`cnimgr.go` pollContinuously, phase
   * 2: every 5 s), and a failure past the grace period turns NetworkReady false again.
   */
  continuousStatus: boolean;
  /** The commit of the tag, as `crio --version` prints it (GitCommit). */
  gitCommit: string;
  /**
   * libcni v1.3.0 (go.mod: 1.33+): ocicni's loadNetworks reads a conflist with ConfListFromFile,
   * which appends the plugin configs of `<conf dir>/<network name>/*.conf` unless
   * `loadOnlyInlinedPlugins`, and lets a list have no `plugins` key (`libcni/conf.go`
   * NetworkConfFromFile). The result cache keeps the file's own bytes (`api.go` cacheAdd of
   * list.Bytes), so CHECK and DEL, which ocicni runs from the cache, see the inline plugins only.
   */
  pluginConfDir: boolean;
  /**
   * ocicni v0.5.0 (1.35+) logs less: `CNI monitoring event …` only for a file whose extension is
   * `.conf`, `.conflist` or `.json` (commit e129e48; the plugin directories' events go unlogged),
   * and `Updated default CNI network name to …` only when there is one (commit e4a886b).
   */
  quietMonitor: boolean;
  /** What networkStop does when the DEL fails (`server/sandbox_network.go`): see StopDelFailure. */
  stopDelFailure: StopDelFailure;
}

/**
 * networkStop (`server/sandbox_network.go`) when ocicni's TearDownPod (the DEL) fails, as it
 * changed over the patch releases (the function's text compared at every tag):
 * - `fail`: the error, `failed to destroy network for pod sandbox <name>(<id>): <err>`; the
 *   network is not marked stopped, so the kubelet's retry runs DEL again
 *   (1.28.x, 1.29.0 – 1.29.12, 1.30.0 – 1.30.8, 1.31.0 – 1.31.3);
 * - `rm-netns` (commit 7c3290d "Allow to remove pod sandbox on netns removal"): the same error,
 *   suffixed with why the netns path could not be dealt with: `stat netns path "<p>": …` when it
 *   is gone, `failed to remove netns path: unlinkat <p>: device or resource busy` while it is
 *   still pinned (a mount point); a plain file there is removed and the stop succeeds
 *   (1.29.13, 1.30.9 – 1.30.14, 1.31.4 – 1.31.13, 1.32.0 – 1.32.7, 1.33.0 – 1.33.2);
 * - `skip-missing` (commit d17990a): a netns path that is gone skips the DEL and the network
 *   counts as stopped; a failed DEL is `network teardown failed for pod sandbox <name>(<id>):
 *   <err>` and the pinned path is removed if it can be (1.33.3);
 * - `mark-stopped`: DEL always runs; when it fails the sandbox's result cache files are removed
 *   and the network is marked stopped anyway ("to prevent retry loops") before the same error
 *   is returned, so the kubelet's next StopPodSandbox succeeds (1.32.8 – 1.32.10, 1.33.4, 1.34.0);
 * - `mark-stopped-quiet`: as `mark-stopped`, and a DEL that fails while the netns path is gone
 *   or empty is not an error at all (1.32.11+, 1.33.5+, 1.34.1+, 1.35, 1.36).
 */
export type StopDelFailure =
  'fail' | 'rm-netns' | 'skip-missing' | 'mark-stopped' | 'mark-stopped-quiet';

/** The networkStop generation of a release (see StopDelFailure). */
function stopDelFailure(n: number, patch: number): StopDelFailure {
  switch (n) {
    case 28:
      return 'fail';
    case 29:
      return patch >= 13 ? 'rm-netns' : 'fail';
    case 30:
      return patch >= 9 ? 'rm-netns' : 'fail';
    case 31:
      return patch >= 4 ? 'rm-netns' : 'fail';
    case 32:
      return patch <= 7 ? 'rm-netns' : patch <= 10 ? 'mark-stopped' : 'mark-stopped-quiet';
    case 33:
      return patch <= 2
        ? 'rm-netns'
        : patch === 3
          ? 'skip-missing'
          : patch === 4
            ? 'mark-stopped'
            : 'mark-stopped-quiet';
    case 34:
      return patch === 0 ? 'mark-stopped' : 'mark-stopped-quiet';
    default:
      return 'mark-stopped-quiet';
  }
}

export type CrioReleaseParse = { ok: true; release: CrioRelease } | { ok: false; error: string };

export function crioReleaseError(v: string): string {
  const known = KNOWN_CRIO_RELEASES.map((k) => `${k.minor}.0–${k.minor}.${k.last}`).join(', ');
  return `unknown CRI-O release "${v}": expected a release number like "1.31.2" or "1.32.x" (releases ${known}; behaviour ranges ${CRIO_BEHAVIOUR_RANGES.join(', ')})`;
}

function vendors(minor: string): string {
  switch (minor) {
    case '1.28':
      return 'ocicni v0.4.1-0.20230504062519-ad62f4ea0c11, libcni v1.1.2';
    case '1.29':
      return 'ocicni v0.4.1, libcni v1.1.2';
    case '1.30':
      return 'ocicni v0.4.2, libcni v1.1.2';
    case '1.31':
      return 'ocicni v0.4.2, libcni v1.2.3';
    case '1.32':
      return 'ocicni v0.4.3, libcni v1.2.3';
    case '1.35':
    case '1.36':
      return 'ocicni v0.5.0, libcni v1.3.0';
    default:
      return 'ocicni v0.4.3, libcni v1.3.0';
  }
}

/** A CRI-O release number ("1.31.2", "v1.32.0", "1.31.x") and its behaviours, or why not. */
export function parseCrioRelease(input: string): CrioReleaseParse {
  const m = /^v?(\d+\.\d+)\.(\d+|x)$/.exec(input);
  const known = m ? KNOWN_CRIO_RELEASES.find((k) => k.minor === m[1]) : undefined;
  if (!m || !known) return { ok: false, error: crioReleaseError(input) };
  const p = m[2]!;
  if (p !== 'x' && (Number(p) > known.last || (p.length > 1 && p.startsWith('0'))))
    return { ok: false, error: crioReleaseError(input) };
  const minor = m[1]!;
  const patch = p === 'x' ? known.last : Number(p);
  const version = `${minor}.${patch}`;
  const n = Number(minor.split('.')[1]);
  const range: CrioBehaviourRange =
    n <= 30 ? '1.28–1.30' : n === 31 ? '1.31' : n <= 35 ? '1.32–1.35' : '1.36';
  return {
    ok: true,
    release: {
      version,
      range,
      libcni: n <= 30 ? '1.1' : '1.2',
      vendors: vendors(minor),
      statusAndGc: n >= 32,
      continuousStatus: n >= 36,
      gitCommit: CRIO_COMMITS[version] ?? '',
      stopDelFailure: stopDelFailure(n, patch),
      pluginConfDir: n >= 33,
      quietMonitor: n >= 35,
    },
  };
}

/** The release of a node's settings (a bad number, which the schema refuses, falls back). */
export function crioReleaseOf(version: string): CrioRelease {
  const r = parseCrioRelease(version);
  if (r.ok) return r.release;
  const d = parseCrioRelease(DEFAULT_CRIO_VERSION);
  if (!d.ok) throw new Error(d.error);
  return d.release;
}

/** `git rev-list -n1 v<version>` of github.com/cri-o/cri-o. */
const CRIO_COMMITS: Readonly<Record<string, string>> = {
  '1.28.0': '6c5e39a4f971ee9f9db82e570280b6162dd42fcb',
  '1.28.1': 'eda470f7f503d9f40a9aa2a02e45f0878ed6fc61',
  '1.28.2': 'e7be4e160f3cc3810b3f6c9fbf225697d772a9ad',
  '1.28.3': '94c0704abe46255b169a8dae736ff7f86836ec74',
  '1.28.4': 'c5fc2a463053cf988db2aebe9b762700484922e5',
  '1.28.5': '108c065f0fb105c8a70fa9d52b91678c261665a4',
  '1.28.6': '77bbb1c279801c7d5c88b39281e22c033ccde362',
  '1.28.7': '111aec5e196757178abcf707a3f880fafad83107',
  '1.28.8': 'fcaab07a2f5f143164f4a83d19006cd17326df8a',
  '1.28.9': '674ed4c152d6e302904336346d347e0a96b8ad81',
  '1.28.10': '368cd231d174002cf25db59a2baba43e81bb2eba',
  '1.28.11': '676f4c6fccb15c74a52adf331c20f34b86e7924d',
  '1.29.0': 'd59bbdc252837107c9f5d235b8fb2650ff2b9d93',
  '1.29.1': '78e179ba8dd3ce462382a17049e8d1f770246af1',
  '1.29.2': 'd317b5dc918bbfbc78481072a0d93e572aa8d0e8',
  '1.29.3': '12c618780c42414d92d6a8dc8d09c16337668eb2',
  '1.29.4': '51ea93e0b9af5ad2cfa7f8071ec48d99bf39a3ec',
  '1.29.5': 'b043c66fe29e023a4c4bd2f5b27a790c86a2ec59',
  '1.29.6': 'fd433b760ab2ec331213be12d25008473562b1bd',
  '1.29.7': 'de63199f831510fcd373e318b126f9838daa232c',
  '1.29.8': '322899959d3ffa60b431dc8470a5cb2779fcd22c',
  '1.29.9': '933bdd28b54ead4dfbbb1b0cc5ff46e8942b08a1',
  '1.29.10': '319967ea0c7a42f63ce399b16d37dd077f87beb9',
  '1.29.11': '16d9bd6ab866a5157fe2f33e7d7d8a1c86cebae9',
  '1.29.12': 'fd64674492e281fb4d8ed9395fc3f1737e423f61',
  '1.29.13': '99060581eb2755e17d814bd4508630045099047f',
  '1.30.0': 'd519447937c4711db9ad3e783ab2b8121b39b996',
  '1.30.1': 'a947f0811f32c2189229ffda6bda02fc4561c339',
  '1.30.2': '70121d4eb380cf6490befa11391a595b298bd11e',
  '1.30.3': '8750e76e814ab80c40061f07402187d6b33ab72e',
  '1.30.4': 'dbc00ffd41a487c847158032193b6dca9b49e821',
  '1.30.5': 'df27b8f8eb49a13c522aca56ee4ec27bc7482fad',
  '1.30.6': '747ac86f851b1d0b3ce2cc09a4b7c053c6ead8ff',
  '1.30.7': '2391edcb98c15a5557fa899a143501d2608dc044',
  '1.30.8': '359f960f46697517f048e6ff3caf728ae75cb384',
  '1.30.9': '03ef12bcc353426d343d55ac72b91c9d6368f94f',
  '1.30.10': 'd088fcfa5f575fe4720e2f37caf95756823f93d5',
  '1.30.11': '9e4d86d82370ad44c14649f28ebdd8f94aaa28ca',
  '1.30.12': '97e6ff87ef8929109c72ad9b06a16feb45a49916',
  '1.30.13': 'c35937502e72848878c3e6ea4c0a60f5c99b724d',
  '1.30.14': '0a197ae7193bed82f55ae3e16fdd69106ce45e3e',
  '1.31.0': 'ac758bb6183ef69cd47c663eb916953217a97fb3',
  '1.31.1': '1328c762815533fb201b0c4362741bc9ab2ce2e6',
  '1.31.2': '920af25f2b6fd4f52bced0e73f696e48464da543',
  '1.31.3': '5865976a62cd3abd1b56ec21ea4fde19a730fe87',
  '1.31.4': '33d75981bee230f791709975125d7386fe2c530a',
  '1.31.5': '5184b74964ef620d64169a41fd27afdba6fe130e',
  '1.31.6': 'da737c970d3f90eac84306b4c2651e6ab99e8952',
  '1.31.7': '83d6749c6134d7efada0dc73e626be3646c26119',
  '1.31.8': 'cf2e51516484451de27871588d9beb2f8730e2b9',
  '1.31.9': '0ba90a5f1e423dc1cfd77a7a5009848115757e18',
  '1.31.10': 'ce48a3296808b0a5694b500fed89cc50fe4c9150',
  '1.31.11': '65ec77ab374cdff4c19e0eb58fc48250b2b902b5',
  '1.31.12': '2cea33935dd794bf1de2b81ca5e3f95491134e97',
  '1.31.13': '15789b8b6e1b644cb32c077e29407407e7481216',
  '1.32.0': 'b7f3c240bcbda6fae8d43561694d18317e09e167',
  '1.32.1': '217bc2fe5c7b94e217d13c1c3809922c76f6107d',
  '1.32.2': '318db72eb0b3d18c22c995aa7614a13142287296',
  '1.32.3': '823120c1035558215a91d8e6b9076da57568eda5',
  '1.32.4': '98d1c09ddca19fa1aa0b794b783770a235ebfafd',
  '1.32.5': '9607a04c08867b45711fa0f844a640250bff9460',
  '1.32.6': '8e1af22222db2b6f9c856eb56370ae1fd54cac59',
  '1.32.7': '71d5a61b657eda0b1543f7ddb626eab34694b9ce',
  '1.32.8': '61402657c962fa36862bdbc958c6dbcba770b39b',
  '1.32.9': '2de10fd128005e00854c5b39b94aa5df73225e73',
  '1.32.10': '71a13a61e4e322dcbd26fa7cfa90a278043f546a',
  '1.32.11': 'bcf9e199b5882a8d7869b307117f58439020ea30',
  '1.32.12': 'ed85b88c5694a55702d052a03bf0922d9133567e',
  '1.32.13': 'a941e5fc3c7b6536797d2bd42a9f924145e95c2c',
  '1.33.0': '9d143f94054fc5c8338673f35f7c0164490363b3',
  '1.33.1': 'de5978d45a52b5092c2d6c510b379fa4c6f64cb3',
  '1.33.2': '0da1b7c95fa3ec7cb83306a39724bf39e35033f4',
  '1.33.3': '94372b0d07ddc534b1bd15ecaa8719f383ade3c5',
  '1.33.4': '60c6d8d6260f624be6d858096f4fc180158ab69d',
  '1.33.5': '29ddd0a86c962799c8cb9f02282aaf1c9574cef3',
  '1.33.6': '3b8ff4e8ed196000a8f4ad4cad1fe4bd162cdb77',
  '1.33.7': 'dfa946ae60115bed7114d3d7b80f2fda98e8a1d8',
  '1.33.8': 'e34ce3fac14329dff820d6b57f2bbdbbf0df5618',
  '1.33.9': 'b9ac8350f2ee5d0817efae54e82daa141c4ec425',
  '1.33.10': 'a4d0894b457301eb8e25c3ef114e1b8a5b491a38',
  '1.33.11': 'bbba73dd55d3bbbc26fd0c3eb507bf15097216dc',
  '1.33.12': 'f61007b555baf09c789a73d3f4d95cafc1138fec',
  '1.33.13': '88fba2dcb1093621c70184699881bfb36f906c40',
  '1.34.0': 'd91a449706dbbd6c285e4d365bbd3b65fd8de43c',
  '1.34.1': '8e14bff4153ba033f12ed3ffa3cadaca5425b313',
  '1.34.2': '84b02b815eded0cd5550f2edf61505eea9bbf074',
  '1.34.3': '067a88aedf5d7c658a2acb81afe82d6c3a367a52',
  '1.34.4': 'cc8e8609ed352d8e34b12e8a659fe4dd3bbb7892',
  '1.34.5': 'a8af6eae138dc16a04849769b54a1b175ad8f890',
  '1.34.6': 'bca534a7fd6db5c88fc47493273ecf4dafe392f4',
  '1.34.7': 'dd7d093666b511958a4a94399f1ad175ab36f52e',
  '1.34.8': '9ef5c1ec08a36c69ff0e64d1ac876b847a5a22b5',
  '1.34.9': 'c72499ee6ac9c37e01e01cb867d09146f0783d91',
  '1.34.10': '83ee25badf5b26ecc4423dee3e5243e6aa75ea74',
  '1.34.11': '33a39f806928b6b9798abf491ed8909991b988da',
  '1.35.0': '92c18a2e2673764cd10f89b1a5061e2b26f44209',
  '1.35.1': '3db5fd17ae814fdbb5fb6afe7c2214613af93d43',
  '1.35.2': 'fb90456847161db2fd085f5991852305b6e9fdae',
  '1.35.3': '5a749bae37de8a35e8ebb7c56920dae0dd8fa0d7',
  '1.35.4': '23d2647f050ac2b72c81485c5654cbc05e0260ae',
  '1.35.5': '78f87e53702d1577f9aa26c1a98bc3dad00c2c26',
  '1.35.6': '7d91b78fc79e2cd764eba15ead350984479be98f',
  '1.36.0': 'd1e7bdc854ed4846a7f15c5e0c17e0140a1d817b',
  '1.36.1': '75a79851f912e67647903fddddcb65ae1bfdabeb',
  '1.36.2': '7ec673a2519ec5531073b9e9acc63cc5399c664a',
  '1.36.3': 'b24632ab44955fa84685640d4177f3c554e9f69c',
};
