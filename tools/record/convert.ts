/**
 * Turns recorded fixtures back into scenario specs (to re-record them and validate the recorder).
 *
 *   npx tsx tools/record/convert.ts <fixture.json | dir>... --out DIR
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { NODE_SYSCTLS } from './lib/snapshot';
import type { Scenario, StepSpec } from './lib/spec';
import { isObject, type Json, type JsonObject } from './lib/util';

function str(v: Json | undefined): string {
  if (typeof v !== 'string') throw new Error(`expected a string, got ${JSON.stringify(v)}`);
  return v;
}

export function fixtureToScenario(fx: JsonObject): Scenario {
  const steps = (fx.steps as JsonObject[]).slice(1);
  const sysctls: Record<string, string[]> = {};
  const tc = new Set<string>();
  for (const st of fx.steps as JsonObject[]) {
    const nss = (st.state as JsonObject).namespaces as JsonObject;
    for (const [ns, s] of Object.entries(nss)) {
      if (!isObject(s)) continue;
      if (isObject(s.sysctls)) {
        const extra = Object.keys(s.sysctls).filter(
          (k) => ns !== 'node' || !NODE_SYSCTLS.includes(k),
        );
        if (extra.length > 0) sysctls[ns] = [...new Set([...(sysctls[ns] ?? []), ...extra])];
      }
      if (Array.isArray(s.tc)) tc.add(ns);
    }
  }
  const specSteps: StepSpec[] = steps.map((st) => {
    const note = typeof st.note === 'string' ? { note: st.note } : {};
    switch (st.type) {
      case 'libcni': {
        if (st.op === 'VERSION')
          return { type: 'libcni', op: 'VERSION', plugin: str(st.plugin), ...note };
        const netns = str(st.netns);
        const byName =
          typeof st.netnsName === 'string' && netns === `/var/run/netns/${st.netnsName}`;
        const out: StepSpec = {
          type: 'libcni',
          op: str(st.op) as 'ADD' | 'CHECK' | 'DEL',
          conflist: str(st.conflist),
          containerId: str(st.containerId),
          ...(byName ? { netnsName: str(st.netnsName) } : { netns }),
          ifName: str(st.ifName),
          ...note,
        };
        if (Array.isArray(st.cniArgs)) out.cniArgs = st.cniArgs as [string, string][];
        if (isObject(st.capabilityArgs)) out.capabilityArgs = st.capabilityArgs;
        return out;
      }
      case 'invoke': {
        const inv = st.invocation as JsonObject;
        const io =
          typeof inv.stdinRaw === 'string'
            ? { stdinRaw: inv.stdinRaw }
            : { stdin: inv.stdin as Json };
        return {
          type: 'invoke',
          plugin: str(inv.plugin),
          env: inv.env as Record<string, string>,
          ...io,
          ...note,
        };
      }
      case 'env':
        return {
          type: 'env',
          action: str(st.action),
          description: str(st.description),
          command: str(st.command),
        };
      case 'probe':
        return { type: 'probe', probe: 'ping', from: str(st.from), to: str(st.to) };
      default:
        throw new Error(`unknown step type ${String(st.type)}`);
    }
  });
  const sc: Scenario = {
    name: str(fx.name),
    description: str(fx.description),
    notes: (fx.notes as string[] | undefined) ?? [],
    conflists: fx.conflistFiles as Record<string, string>,
    pods: fx.pods as string[],
    steps: specSteps,
  };
  if (Object.keys(sysctls).length > 0) sc.sysctls = sysctls;
  if (tc.size > 0) sc.tc = [...tc];
  return sc;
}

function main(): void {
  const args = process.argv.slice(2);
  const oi = args.indexOf('--out');
  if (oi < 0 || !args[oi + 1]) {
    console.error('usage: npx tsx tools/record/convert.ts <fixture.json|dir>... --out DIR');
    process.exit(2);
  }
  const out = resolve(args[oi + 1] ?? '');
  const inputs = args.filter((_a, i) => i !== oi && i !== oi + 1);
  mkdirSync(out, { recursive: true });
  for (const input of inputs) {
    const files = statSync(input).isDirectory()
      ? readdirSync(input)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => join(input, f))
      : [input];
    for (const f of files) {
      const sc = fixtureToScenario(JSON.parse(readFileSync(f, 'utf8')) as JsonObject);
      writeFileSync(join(out, basename(f)), JSON.stringify(sc, null, 2) + '\n');
      console.log(`${f} -> ${join(out, basename(f))}`);
    }
  }
}

main();
