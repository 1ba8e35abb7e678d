/**
 * What the app shows of a node's containerd release: the release the daemon runs (which decides
 * its behaviours and its libcni), and one installed since that runs from containerd's next start
 * (the Actions panel installs it; docs/runtimes.md).
 */
import { loadEngine, type ContainerdState } from '../engine';

export interface ReleaseInfo {
  /** The CRI runtime: containerd, or CRI-O (whose release a scenario sets; no picker). */
  runtime: 'containerd' | 'cri-o';
  /** The release the daemon runs, e.g. "1.7.22". */
  version: string;
  /** Its behaviour range, e.g. "1.7.0–1.7.22". */
  range: string;
  libcni: '1.1' | '1.2';
  /** The go-cni and libcni modules it vendors. */
  vendors: string;
  /** A release installed that runs from containerd's next start. */
  installed: string | null;
}

export function releaseInfo(c: ContainerdState | undefined): ReleaseInfo | null {
  if (!c) return null;
  if (c.settings.runtime === 'cri-o') {
    const r = loadEngine.now().crioReleaseOf(c.settings.version);
    return {
      runtime: 'cri-o',
      version: r.version,
      range: r.range,
      libcni: r.libcni,
      vendors: r.vendors,
      installed: null,
    };
  }
  const r = loadEngine.now().releaseOf(c.settings);
  return {
    runtime: 'containerd',
    version: r.version,
    range: r.range,
    libcni: r.libcni,
    vendors: r.vendors,
    installed: c.installed ?? null,
  };
}

/** The line under a node's release: its behaviour range and what it vendors. */
export function releaseDetails(i: ReleaseInfo): string {
  return `behaviour range ${i.range}; ${i.vendors}`;
}

/** The newest release of each behaviour range, with the range: the picker's suggestions. */
let suggestions: Array<{ version: string; range: string }> | null = null;
export function releaseSuggestions(): Array<{ version: string; range: string }> {
  if (suggestions) return suggestions;
  const engine = loadEngine.now();
  const byRange = new Map<string, string>();
  for (const k of engine.KNOWN_RELEASES) {
    for (let p = 0; p <= k.last; p++) {
      const r = engine.parseRelease(`${k.minor}.${p}`);
      if (r.ok) byRange.set(r.release.range, r.release.version);
    }
  }
  suggestions = [...byRange].map(([range, version]) => ({ version, range }));
  return suggestions;
}

/** The engine's error for a release number (null when it is one). */
export function releaseProblem(text: string): string | null {
  const r = loadEngine.now().parseRelease(text.trim());
  return r.ok ? null : r.error;
}

/** The releases there are, e.g. "1.6.0 to 2.3.4". */
export function releaseSpan(): string {
  const k = loadEngine.now().KNOWN_RELEASES;
  return `${k[0]!.minor}.0 to ${k[k.length - 1]!.minor}.${k[k.length - 1]!.last}`;
}
