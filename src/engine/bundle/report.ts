/**
 * The report on a bundle's node: what was built, what the runtime loads, the findings, the drill,
 * and (with a second bundle) what changes between before and after. Text and JSON.
 */
import type { NodeBundle } from './bundle';
import { type Boot, type DrillOptions, type DrillResult, bootNode, runDrill } from './drill';
import { type Finding, analyse } from './findings';
import { SIMULATED_PLUGINS, buildFor, libcniOf } from './node';

export interface PluginRow {
  name: string;
  supportedVersions: string[] | null;
  /** `simulated as v1.1.1`, `not simulated`. */
  simulated: string;
}

export interface NodeReport {
  runtime: { kind: string; version: string | null; libcni: '1.1' | '1.2'; text: string };
  cni: NodeBundle['cni'];
  podCIDR: string | null;
  plugins: PluginRow[];
  /** What cnisim could not reproduce, and the bundle's missing parts. */
  notes: string[];
  loaded: Array<{ name: string; ifName: string; file: string }>;
  loadError: string | null;
  networkReady: boolean;
  findings: Finding[];
  drill: DrillResult;
  diff?: DiffReport;
}

export interface DiffReport {
  files: Array<{ file: string; change: 'added' | 'removed' | 'changed' }>;
  loaded: { before: string[]; after: string[] };
  plugins: Array<{ name: string; before: string; after: string }>;
  runtime: { before: string; after: string } | null;
  /** Findings of the after bundle that the before bundle does not have, and the reverse. */
  newFindings: Finding[];
  goneFindings: Finding[];
}

function pluginRows(b: NodeBundle): PluginRow[] {
  return Object.keys(b.plugins)
    .sort()
    .map((name) => {
      const v = b.plugins[name]!;
      const m = buildFor(v);
      return {
        name,
        supportedVersions: v.supportedVersions,
        simulated: SIMULATED_PLUGINS.includes(name)
          ? `simulated as build ${m?.build ?? 'v1.1.1'}`
          : 'not simulated',
      };
    });
}

export interface ReportOptions extends DrillOptions {
  /** Skip the drill (findings only). */
  noDrill?: boolean;
}

/** The whole report for one bundle. Never throws. */
export function nodeReport(b: NodeBundle, opts: ReportOptions = {}): NodeReport {
  const boot: Boot = bootNode(b);
  const findings = boot.ok ? analyse(b, boot.loaded) : [];
  const drill: DrillResult = opts.noDrill
    ? { skipped: 'not asked for', steps: [], audit: [], pods: [] }
    : runDrill(b, boot, opts);
  for (const s of drill.steps) {
    if (s.outcome !== 'failed') continue;
    const checkOnly =
      s.step.startsWith('CHECK') &&
      s.messages.some((m) => m.includes('does not support the CHECK command'));
    if (checkOnly) {
      findings.push({
        severity: 'info',
        kind: 'check',
        evidence: `drill step "${s.step}"${s.at ? ` at ${s.at}` : ''}`,
        message: `${s.messages.join(' | ')}. CHECK needs cniVersion 0.4.0 or later; containerd never runs CHECK, so pods are not affected; a runtime that does (CRI-O, after ADD) gets this error.`,
        fix: 'Nothing to fix for containerd; raise cniVersion to 0.4.0 or later (if every plugin supports it) to be able to CHECK.',
      });
      continue;
    }
    findings.push({
      severity: 'error',
      kind: 'drill',
      evidence: `drill step "${s.step}"${s.at ? ` at ${s.at}` : ''}`,
      message: [s.detail, ...s.messages].filter(Boolean).join(' | '),
      fix: 'See the message; the findings above usually name the cause.',
    });
  }
  // The audit's findings, one per kind: `orphan-reservation: /var/lib/cni/... (held by ...)`.
  const byKind = new Map<string, string[]>();
  for (const a of drill.audit) {
    const k = a.slice(0, a.indexOf(':'));
    byKind.set(k, [...(byKind.get(k) ?? []), a.slice(a.indexOf(':') + 2)]);
  }
  for (const [k, items] of byKind)
    findings.push({
      severity: 'error',
      kind: 'ipam-audit',
      evidence: `IPAM audit after the drill: ${k}`,
      message: `${k} x${items.length} left behind, e.g. ${items.slice(0, 2).join('; ')}`,
      fix: 'A failed ADD whose clean-up DEL failed too leaves these on the node; fix the failure above, then remove the leftovers (host-local reservations under /var/lib/cni/networks/<network>/, the CNI-* iptables chains).',
    });
  return {
    runtime: {
      kind: b.runtime.kind,
      version: b.runtime.version,
      libcni: libcniOf(b.runtime),
      text: b.runtime.raw.split('\n')[0] ?? '',
    },
    cni: b.cni,
    podCIDR: b.podCIDR,
    plugins: pluginRows(b),
    notes: [...b.notes, ...boot.plan.notes, ...(boot.ok ? [] : boot.errors)],
    loaded: boot.loaded.networks.map(({ name, ifName, file }) => ({ name, ifName, file })),
    loadError: boot.loaded.error,
    networkReady: boot.networkReady,
    findings,
    drill,
  };
}

const key = (f: Finding): string => `${f.kind}\u0000${f.message}`;

export function diffReports(
  before: NodeBundle,
  after: NodeBundle,
  rb: NodeReport,
  ra: NodeReport,
): DiffReport {
  const files: DiffReport['files'] = [];
  const names = [
    ...new Set([...Object.keys(before.confFiles), ...Object.keys(after.confFiles)]),
  ].sort();
  for (const f of names) {
    const a = before.confFiles[f];
    const c = after.confFiles[f];
    if (a === undefined) files.push({ file: f, change: 'added' });
    else if (c === undefined) files.push({ file: f, change: 'removed' });
    else if (a !== c) files.push({ file: f, change: 'changed' });
  }
  const plugins: DiffReport['plugins'] = [];
  const pn = [...new Set([...Object.keys(before.plugins), ...Object.keys(after.plugins)])].sort();
  const vtext = (b: NodeBundle, p: string) =>
    b.plugins[p]
      ? b.plugins[p]!.supportedVersions
        ? `supports up to ${b.plugins[p]!.supportedVersions!.at(-1)}`
        : 'version unknown'
      : 'absent';
  for (const p of pn) {
    const x = vtext(before, p);
    const y = vtext(after, p);
    if (
      x !== y ||
      JSON.stringify(before.plugins[p]?.supportedVersions) !==
        JSON.stringify(after.plugins[p]?.supportedVersions)
    )
      plugins.push({ name: p, before: x, after: y });
  }
  const bk = new Set(rb.findings.map(key));
  const ak = new Set(ra.findings.map(key));
  return {
    files,
    loaded: {
      before: rb.loaded.map((n) => `${n.name} (${n.file})`),
      after: ra.loaded.map((n) => `${n.name} (${n.file})`),
    },
    plugins,
    runtime:
      before.runtime.raw === after.runtime.raw
        ? null
        : { before: rb.runtime.text, after: ra.runtime.text },
    newFindings: ra.findings.filter((f) => !bk.has(key(f)) && f.severity !== 'info'),
    goneFindings: rb.findings.filter((f) => !ak.has(key(f)) && f.severity !== 'info'),
  };
}

/** The report on `after`, with the differences from `before`. */
export function compareBundles(
  before: NodeBundle,
  after: NodeBundle,
  opts: ReportOptions = {},
): NodeReport {
  const rb = nodeReport(before, { ...opts, noDrill: true });
  const ra = nodeReport(after, opts);
  return { ...ra, diff: diffReports(before, after, rb, ra) };
}

const SEV = { error: 'ERROR', warning: 'WARN ', info: 'info ' } as const;

export function formatNodeReport(r: NodeReport): string {
  const out: string[] = [];
  out.push(
    `Node from bundle: ${r.runtime.kind}${r.runtime.version ? ` ${r.runtime.version}` : ''} (libcni ${r.runtime.libcni}); pod CIDR ${r.podCIDR ?? 'none'}`,
  );
  out.push(
    `Runtime CNI settings (${r.cni.source}): confDir ${r.cni.confDir}, binDirs [${r.cni.binDirs.join(' ')}], maxConfNum ${r.cni.maxConfNum}`,
  );
  out.push('');
  out.push('Plugins in the bin dir:');
  if (!r.plugins.length) out.push('  (none)');
  for (const p of r.plugins)
    out.push(
      `  ${p.name.padEnd(14)} ${p.supportedVersions ? `supports ${p.supportedVersions.join(', ')}` : 'VERSION answer unreadable'}; ${p.simulated}`,
    );
  out.push('');
  out.push(
    `Loaded by the runtime: ${r.loaded.length ? r.loaded.map((n) => `${n.name} from ${n.file} (${n.ifName})`).join('; ') : 'nothing'}`,
  );
  if (r.loadError) out.push(`Load error: ${r.loadError}`);
  out.push(`NetworkReady: ${r.networkReady}`);
  if (r.notes.length) {
    out.push('');
    out.push('Notes (what the bundle lacks, what is not simulated):');
    for (const n of r.notes) out.push(`  - ${n}`);
  }
  out.push('');
  const counts = (['error', 'warning', 'info'] as const).map(
    (s) => `${r.findings.filter((f) => f.severity === s).length} ${s}`,
  );
  out.push(`Findings (${counts.join(', ')}):`);
  for (const f of r.findings) {
    out.push(`  ${SEV[f.severity]} [${f.kind}] ${f.message}`);
    out.push(`         evidence: ${f.evidence}`);
    if (f.severity !== 'info') out.push(`         fix: ${f.fix}`);
  }
  out.push('');
  if (r.drill.skipped) out.push(`Dry-run: not run: ${r.drill.skipped}.`);
  else {
    out.push('Dry-run (the staging drill):');
    for (const s of r.drill.steps) {
      out.push(
        `  ${s.outcome === 'ok' ? 'ok    ' : s.outcome === 'failed' ? 'FAILED' : 'not reached'} ${s.at ? `[${s.at}] ` : ''}${s.step}${s.detail ? `: ${s.detail}` : ''}`,
      );
      for (const m of s.messages) out.push(`           ${m}`);
    }
    const kinds = new Map<string, number>();
    for (const a of r.drill.audit) {
      const k = a.split(':')[0]!;
      kinds.set(k, (kinds.get(k) ?? 0) + 1);
    }
    const audit = [...kinds].map(([k, n]) => `${k} x${n}`).join(', ');
    out.push(`  IPAM audit: ${audit || 'nothing left behind'}`);
  }
  if (r.diff) {
    const d = r.diff;
    out.push('');
    out.push('Differences from the before bundle:');
    for (const f of d.files) out.push(`  ${f.change.padEnd(8)} ${f.file}`);
    if (d.loaded.before.join() !== d.loaded.after.join())
      out.push(
        `  loaded network: ${d.loaded.before.join(', ') || 'none'} -> ${d.loaded.after.join(', ') || 'none'}`,
      );
    for (const p of d.plugins) out.push(`  plugin ${p.name}: ${p.before} -> ${p.after}`);
    if (d.runtime) out.push(`  runtime: ${d.runtime.before} -> ${d.runtime.after}`);
    for (const f of d.newFindings) out.push(`  new:  ${SEV[f.severity]} [${f.kind}] ${f.message}`);
    for (const f of d.goneFindings) out.push(`  gone: ${SEV[f.severity]} [${f.kind}] ${f.message}`);
    if (!d.files.length && !d.plugins.length && !d.runtime) out.push('  none');
  }
  return out.join('\n');
}
