/**
 * Plugin builds. A build fixes the spec versions a binary accepts, the libcni generation it was
 * compiled against (result types, skel behaviour) and its "about" text.
 */
import { LIB_V1_1, LIB_V1_2, type ResultLib } from '../../cni/result';
import type { SkelGen } from '../../cni/skel';
import { ALL_VERSIONS_V1_0, ALL_VERSIONS_V1_1 } from '../../cni/version';

export interface PluginBuild {
  id: string;
  /** Release shown by `about` ("version unknown" for Debian's v1.1.1 build). */
  release: string;
  lib: ResultLib;
  /** Spec versions a plugin supporting "everything" accepts in this build. */
  all: readonly string[];
  /** Spec version VERSION reports as its own cniVersion. */
  specVersion: string;
  /** Whether the plugins have spec 1.1 code (GC / STATUS functions, 1.1 result fields). */
  spec11: boolean;
  /** The skeleton (cni/pkg/skel) the build vendors: cni v0.6.0 knows no CHECK, v1.2 knows GC. */
  skel: SkelGen;
}

export const BUILD_V1_1_1: PluginBuild = {
  id: 'v1.1.1',
  release: 'version unknown',
  lib: LIB_V1_1,
  all: ALL_VERSIONS_V1_0,
  specVersion: '1.0.0',
  spec11: false,
  skel: 'cni-1.0',
};

export const BUILD_V1_6: PluginBuild = {
  id: 'v1.6.2',
  release: 'v1.6.2',
  lib: LIB_V1_2,
  all: ALL_VERSIONS_V1_1,
  specVersion: '1.1.0',
  spec11: true,
  skel: 'cni-1.2',
};

/** An older build (plugins v0.8.x, libcni v0.7): spec up to 0.4.0. */
export const BUILD_V0_8_7: PluginBuild = {
  id: 'v0.8.7',
  release: 'v0.8.7',
  lib: LIB_V1_1,
  all: ['0.1.0', '0.2.0', '0.3.0', '0.3.1', '0.4.0'],
  specVersion: '0.4.0',
  spec11: false,
  skel: 'cni-1.0',
};

/** An older build still (plugins v0.7.x, libcni v0.6): spec up to 0.3.1, no CHECK. */
export const BUILD_V0_7_6: PluginBuild = {
  id: 'v0.7.6',
  release: 'v0.7.6',
  lib: LIB_V1_1,
  all: ['0.1.0', '0.2.0', '0.3.0', '0.3.1'],
  specVersion: '0.3.1',
  spec11: false,
  skel: 'cni-0.6',
};

export const BUILDS: Record<string, PluginBuild> = {
  [BUILD_V1_1_1.id]: BUILD_V1_1_1,
  [BUILD_V1_6.id]: BUILD_V1_6,
  [BUILD_V0_8_7.id]: BUILD_V0_8_7,
  [BUILD_V0_7_6.id]: BUILD_V0_7_6,
};

export function aboutText(name: string, b: PluginBuild): string {
  return `CNI ${name} plugin ${b.release}`;
}
