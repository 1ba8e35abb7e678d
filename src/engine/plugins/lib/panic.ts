/**
 * Go panics of the reference plugins (a nil map assignment, a nil pointer dereference): the
 * process prints `panic: ...` and a goroutine trace on stderr, nothing on stdout, and exits 2. The
 * skeleton never sees the error, so a plugin that can panic runs through `pluginMainWithPanics`.
 * Addresses in a real trace change from run to run; the texts here are those of one real run.
 */
import type { CmdFunc, SkelPlugin } from '../../cni/skel';
import { pluginMain } from '../../cni/skel';
import type { Program } from '../../os/process';

export class GoPanic extends Error {
  /** `text`: everything the runtime prints on stderr. */
  constructor(readonly text: string) {
    super(text.split('\n')[0] ?? 'panic');
  }
}

/** A Go slice header as a trace prints an argument: `{0xc0000d2000, 0x1e7, 0x200}`. */
export function goSliceArg(addr: string, len: number): string {
  let cap = 512;
  while (cap < len) cap = cap < 256 ? cap * 2 : cap + Math.floor((cap + 3 * 256) / 4);
  return `{${addr}, 0x${len.toString(16)}, 0x${cap.toString(16)}}`;
}

/** The skeleton's main, except that a GoPanic ends the process like the Go runtime does. */
export function pluginMainWithPanics(plugin: SkelPlugin): Program {
  return function* (p) {
    let panic: GoPanic | null = null;
    const guard = (fn: CmdFunc): CmdFunc =>
      function* (args, proc) {
        try {
          yield* fn(args, proc);
        } catch (e) {
          if (e instanceof GoPanic) panic = e;
          throw e;
        }
      };
    const stdoutBefore = p.stdout.length;
    const code = yield* pluginMain(p, {
      ...plugin,
      add: guard(plugin.add),
      del: guard(plugin.del),
      check: guard(plugin.check),
    });
    if (panic === null) return code;
    p.stdout = p.stdout.slice(0, stdoutBefore);
    p.stderr += (panic as GoPanic).text;
    return 2;
  };
}
