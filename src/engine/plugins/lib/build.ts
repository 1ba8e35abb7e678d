/**
 * Plugin builds. A build fixes the spec versions a binary accepts, the libcni generation it was
 * compiled against (result types, skel behaviour) and its "about" text.
 */
import { LIB_V1_1, LIB_V1_2, type ResultLib } from '../../cni/result';
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
  /** Whether the skeleton knows GC and STATUS. */
  spec11: boolean;
}

export const BUILD_V1_1_1: PluginBuild = {
  id: 'v1.1.1',
  release: 'version unknown',
  lib: LIB_V1_1,
  all: ALL_VERSIONS_V1_0,
  specVersion: '1.0.0',
  spec11: false,
};

export const BUILD_V1_6: PluginBuild = {
  id: 'v1.6.2',
  release: 'v1.6.2',
  lib: LIB_V1_2,
  all: ALL_VERSIONS_V1_1,
  specVersion: '1.1.0',
  spec11: true,
};

export const BUILDS: Record<string, PluginBuild> = {
  [BUILD_V1_1_1.id]: BUILD_V1_1_1,
  [BUILD_V1_6.id]: BUILD_V1_6,
};

export function aboutText(name: string, b: PluginBuild): string {
  return `CNI ${name} plugin ${b.release}`;
}
