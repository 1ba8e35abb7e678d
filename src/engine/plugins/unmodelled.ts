/**
 * Binaries the real package ships whose behaviour cnisim does not model (yet): they answer
 * VERSION exactly as the recorded v1.1.1 binaries do, and fail every other command with a clear
 * error saying so. Listed in docs/plugins.md.
 */
import { GoError } from '../cni/errors';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { pluginMain } from '../cni/skel';
import { versionsFrom } from '../cni/version';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import { type PluginBuild, aboutText } from './lib/build';

/** The lowest spec version each binary accepts (VERSION as recorded); absent = 0.1.0. */
export const MIN_VERSION: Record<string, string> = {
  bandwidth: '0.3.0',
  firewall: '0.4.0',
  vrf: '0.3.1',
};

export function unmodelledProgram(name: string): (b: PluginBuild) => Program {
  return (b) => {
    // eslint-disable-next-line require-yield
    function* fail(_args: CmdArgs, _p: Proc): Gen<void> {
      throw new GoError(
        `cnisim does not model the ${name} plugin: only VERSION is answered (see docs/plugins.md)`,
      );
    }
    const plugin: SkelPlugin = {
      add: fail,
      check: fail,
      del: fail,
      skel: b.skel,
      versions: versionsFrom(b.all, MIN_VERSION[name] ?? '0.1.0'),
      specVersion: b.specVersion,
      about: aboutText(name, b),
    };
    return (p) => pluginMain(p, plugin);
  };
}
