/**
 * The landing's engine (landing.ts, what `loadLanding()` fetches before the first step) leaves
 * out what the whole engine (app.ts) brings: the node shell, the fault catalogue, saving and
 * loading (zod), and the plugins the default conflist does not use. Read from the sources'
 * value imports (type-only imports cost nothing at run time), so that one new static import
 * cannot pull them back unnoticed; e2e/size.spec.ts weighs the built chunks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import { drain } from './session/session';
import { newSandbox } from './session/sandbox';

const ROOT = import.meta.dirname;

/** The files and packages a module's value imports reach (static, not type-only). */
function closure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (abs: string) => {
    const key = abs.startsWith('pkg:') ? abs : relative(ROOT, abs);
    if (seen.has(key)) return;
    seen.add(key);
    if (abs.startsWith('pkg:')) return;
    const sf = ts.createSourceFile(abs, readFileSync(abs, 'utf8'), ts.ScriptTarget.Latest);
    for (const st of sf.statements) {
      let spec: string | null = null;
      if (ts.isImportDeclaration(st)) {
        const c = st.importClause;
        const typeOnly =
          c !== undefined &&
          (c.isTypeOnly ||
            (c.name === undefined &&
              c.namedBindings !== undefined &&
              ts.isNamedImports(c.namedBindings) &&
              c.namedBindings.elements.length > 0 &&
              c.namedBindings.elements.every((e) => e.isTypeOnly)));
        if (!typeOnly) spec = (st.moduleSpecifier as ts.StringLiteral).text;
      } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && !st.isTypeOnly) {
        const named = st.exportClause;
        const typeOnly =
          named !== undefined &&
          ts.isNamedExports(named) &&
          named.elements.every((e) => e.isTypeOnly);
        if (!typeOnly) spec = (st.moduleSpecifier as ts.StringLiteral).text;
      }
      if (spec === null) continue;
      if (!spec.startsWith('.')) {
        visit(
          `pkg:${spec.split('/')[0]!.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]}`,
        );
        continue;
      }
      const t = resolve(dirname(abs), spec);
      const file = [`${t}.ts`, join(t, 'index.ts'), t].find(
        (f) => existsSync(f) && f.endsWith('.ts'),
      );
      if (!file) throw new Error(`${abs}: cannot resolve ${spec}`);
      visit(file);
    }
  };
  visit(join(ROOT, entry));
  return seen;
}

const LEFT_OUT = [
  /^shell\//,
  /^faults\//,
  /^session\/serialize\.ts$/,
  /^plugins\/(bandwidth|firewall|ptp|static|tuning|calico)\.ts$/,
  /^pkg:zod$/,
  // The iptables model: only its provider (and the state's types) come first.
  /^kernel\/iptables\/(?!provider\.ts$|types\.ts$)/,
];

describe("the landing's engine", () => {
  it('leaves out the node shell, the fault catalogue, zod, the unused plugins and iptables', () => {
    const landing = [...closure('landing.ts')];
    expect(landing.filter((f) => LEFT_OUT.some((re) => re.test(f)))).toEqual([]);
    // ... which the whole engine has.
    const app = [...closure('app.ts')];
    for (const re of LEFT_OUT)
      expect(
        app.some((f) => re.test(f)),
        String(re),
      ).toBe(true);
  });

  it('steps the landing without the late parts, to the same trace as the whole engine', async () => {
    const whole = newSandbox();
    drain(whole.runUntilJob({ kind: 'pod-running' }));
    // Fresh modules: nothing has provided the shell, the fault catalogue or the late plugins.
    vi.resetModules();
    const late = (await import('./landing')) as typeof import('./landing');
    const fresh = (await import('./cluster/cluster')) as typeof import('./cluster/cluster');
    const c = new fresh.Cluster(fresh.DEFAULT_CLUSTER, { seed: 1 });
    expect(() => c.shell('node-1', 'true')).toThrow(/not loaded/);
    const reg = (await import('./plugins/registry')) as typeof import('./plugins/registry');
    const { BUILDS } =
      (await import('./plugins/lib/build')) as typeof import('./plugins/lib/build');
    const build = Object.keys(BUILDS)[0]!;
    expect(() => reg.PROGRAMS.lookup('tuning', build)).toThrow(/not loaded/);
    const ipt =
      (await import('./kernel/iptables/provider')) as typeof import('./kernel/iptables/provider');
    expect(() => ipt.iptablesModule()).toThrow(/not loaded/);
    expect(reg.PROGRAMS.lookup('bridge', build)).toBeDefined();
    const s = late.newSandbox();
    // As the app's job runner does: before each unit of work, ask whether to wait.
    const job = s.runUntilJob({ kind: 'pod-running' });
    let done = false;
    while (!late.needsWholeEngine(s) && !done) done = job.next().done === true;
    expect(done).toBe(false);
    // LANDING_EVENTS is tight: the very next unit needs the iptables model.
    expect(s.events.length).toBe(late.LANDING_EVENTS);
    expect(s.events.map((e) => e.summary)).toEqual(
      whole.events.slice(0, late.LANDING_EVENTS).map((e) => e.summary),
    );
    // ... as a second sandbox shows, let past the gate without it: the bridge plugin fails.
    const other = late.newSandbox();
    const past = other.runUntilJob({ kind: 'pod-running' });
    while (!late.needsWholeEngine(other)) past.next();
    while (other.events.length <= late.LANDING_EVENTS) past.next();
    expect(other.events[late.LANDING_EVENTS]!.summary).not.toBe(
      whole.events[late.LANDING_EVENTS]!.summary,
    );
    // The whole engine arrives (its iptables model): the same job goes on.
    await import('./kernel/iptables/late');
    expect(late.needsWholeEngine(s)).toBe(false);
    while (!job.next().done);
    expect(s.events.length).toBeGreaterThan(50);
    expect(s.events.map((e) => e.summary)).toEqual(whole.events.map((e) => e.summary));
    expect(JSON.stringify(s.events)).toBe(JSON.stringify(whole.events));
  });
});
