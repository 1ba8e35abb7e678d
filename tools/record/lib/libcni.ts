/**
 * Runs the Go driver (real libcni v1.1.2) for one libcni step and turns its report into the
 * fixture's `outcome` and `cache` blocks.
 *
 * What real libcni produced is marked `"observed": "libcni v1.1.2"` (result, error string,
 * supported versions, cache file). A few fields exist only in the fixture format; they are
 * computed from what libcni returned, as fixtures/README.md describes:
 *
 *  - `failedPluginIndex`: the plugin whose step failed. libcni calls FindInPath once at the start
 *    of every plugin step, so the driver counts those calls: ADD/CHECK index = calls - 1, DEL
 *    (reverse order) index = nPlugins - calls. Errors raised before any plugin step (version
 *    gate, cache read) have none.
 *  - `error.code/msg/details`: for a plugin step's error, the `types.Error` found in the error
 *    chain (errors.As); if there is none, `msg` is the unwrapped error (the part after
 *    `plugin type=... failed (add): `), or the whole message for CHECK (not wrapped).
 *  - `cache.action/state`: from the cache file before/after the operation, libcni's own
 *    GetNetworkListCachedResult probe taken before it, and libcni's version gate.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PATH, type Sandbox } from './sandbox';
import type { LibcniStepSpec, VersionStepSpec } from './spec';
import { run, tryParse, type Json, type JsonObject } from './util';

export const OBSERVED = { observed: 'libcni v1.1.2' } as const;

export interface DriverResponse {
  ok: boolean;
  result?: Json;
  supportedVersions?: string[];
  error?: {
    message: string;
    typesError?: { code: number; msg: string; details?: string };
    inner?: string;
  };
  loadError?: boolean;
  listName: string;
  listVersion: string;
  disableCheck: boolean;
  nPlugins: number;
  gte040: boolean;
  gteError?: string;
  findCalls: number;
  execs: string[];
  cacheFile: string;
  cacheFileError?: string;
  cacheBefore: { exists: boolean; read: boolean; error?: string };
  cacheExistsAfter: boolean;
}

let reqCounter = 0;

export function runDriver(sb: Sandbox, req: JsonObject): DriverResponse {
  reqCounter += 1;
  const file = join(sb.work, `req-${reqCounter}.json`);
  writeFileSync(file, JSON.stringify(req));
  const r = run(sb.inNode([sb.driverBin, file], { PATH: DEFAULT_PATH }));
  const resp = tryParse(r.stdout);
  if (r.exitCode !== 0 || resp === undefined) {
    throw new Error(`driver failed (${r.exitCode}): ${r.stderr}\n${r.stdout}`);
  }
  return resp as unknown as DriverResponse;
}

export function driverRequest(sb: Sandbox, st: LibcniStepSpec | VersionStepSpec): JsonObject {
  if (st.op === 'VERSION') {
    return {
      op: 'VERSION',
      plugin: st.plugin,
      cniPath: [sb.cniPath],
      tapDir: sb.tapDir,
      cacheDir: sb.cacheDir,
    };
  }
  const netns =
    st.netns !== undefined
      ? sb.denormalise(st.netns)
      : st.netnsName !== undefined
        ? `/var/run/netns/${sb.ns(st.netnsName)}`
        : '';
  const req: JsonObject = {
    op: st.op,
    conflistFile: join(sb.confDir, `${st.conflist}.conflist`),
    cniPath: (st.cniPath ?? ['<cniPath>']).map((p) => sb.denormalise(p)),
    cacheDir: sb.cacheDir,
    tapDir: sb.tapDir,
    containerId: st.containerId,
    netns,
    ifName: st.ifName,
  };
  if (st.cniArgs !== undefined) {
    req.args = st.cniArgs.map(([k, v]) => [sb.denormalise(k), sb.denormalise(v)]);
  }
  if (st.capabilityArgs !== undefined) {
    req.capabilityArgs = JSON.parse(sb.denormalise(JSON.stringify(st.capabilityArgs))) as Json;
  }
  return req;
}

export function outcomeOf(op: string, resp: DriverResponse): JsonObject {
  const outcome: JsonObject = { ok: resp.ok, ...OBSERVED };
  if (resp.ok) {
    if (op === 'ADD' && resp.result !== undefined) outcome.result = resp.result;
    if (op === 'VERSION') outcome.supportedVersions = resp.supportedVersions ?? [];
    return outcome;
  }
  const e = resp.error;
  if (!e) return outcome;
  const error: JsonObject = { message: e.message };
  let failed: number | undefined;
  if (!resp.loadError && resp.findCalls > 0) {
    if (op === 'ADD' && /^plugin .* failed \(add\): /s.test(e.message)) failed = resp.findCalls - 1;
    if (op === 'DEL' && /^plugin .* failed \(delete\): /s.test(e.message)) {
      failed = resp.nPlugins - resp.findCalls;
    }
    if (op === 'CHECK') failed = resp.findCalls - 1;
  }
  if (failed !== undefined || op === 'VERSION') {
    if (e.typesError) {
      error.code = e.typesError.code;
      error.msg = e.typesError.msg;
      if (e.typesError.details) error.details = e.typesError.details;
    } else {
      error.msg = op === 'CHECK' || op === 'VERSION' ? e.message : (e.inner ?? e.message);
    }
  }
  outcome.error = error;
  if (failed !== undefined) outcome.failedPluginIndex = failed;
  return outcome;
}

export function cacheOf(op: string, resp: DriverResponse): JsonObject | undefined {
  if (op === 'VERSION') return undefined;
  const none = { action: 'none', ...OBSERVED };
  if (resp.loadError || resp.cacheFile === '') return none;
  const file = resp.cacheFile;
  const readState = resp.cacheBefore.error
    ? 'unparsable'
    : resp.cacheBefore.read
      ? 'read'
      : 'missing';
  switch (op) {
    case 'ADD':
      return resp.ok && resp.cacheExistsAfter ? { action: 'written', file, ...OBSERVED } : none;
    case 'CHECK':
      if (resp.gteError !== undefined || !resp.gte040 || resp.disableCheck) return none;
      return { action: 'read', file, state: readState, ...OBSERVED };
    case 'DEL': {
      if (resp.gteError !== undefined) return none;
      const state = resp.gte040 ? readState : 'not-read';
      let action: string;
      if (resp.ok) {
        action = !resp.cacheBefore.exists
          ? 'remove-ignored-missing'
          : resp.cacheExistsAfter
            ? 'kept'
            : 'removed';
      } else if (resp.findCalls === 0) {
        action = 'read'; // failed reading the cache, before any plugin ran
      } else {
        action = 'kept';
      }
      return { action, file, state, ...OBSERVED };
    }
    default:
      return none;
  }
}
