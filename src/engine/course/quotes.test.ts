/**
 * What a lesson quotes ("...") is what a node prints. Every double-quoted text of a lesson (its
 * intro, narration, predictions, goals' texts and hints, quiz) must appear in what its own
 * solution run shows (the trace's events, the node's state, the output of its shell lines), or in
 * a recording of the real plugins (conformance/), unless it is listed below as prose: a claim, a
 * term or a shell fragment rather than output. In a quote, `...`, `…` and <placeholders> stand
 * for any text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCourse } from './content';
import { runLesson } from './lesson';
import type { Lesson } from './schema';

/** Quotes that name no output, with why each is quoted. */
const PROSE = new Set([
  // The claim lesson 15 puts to the test.
  'a failed DEL lets the pod go and leaks its IP',
  // A log line the kubelet never writes: the myth the quiz choice stands for.
  'Successfully added network',
  // Kubernetes' name for a pod's cgroup.
  'pod container',
  // The spec's name for error code 11.
  'try again later',
  // libcni's format for an error's details.
  '; details',
  // The kernel's ETXTBSY text, which libcni's exec matches to retry.
  'text file busy',
  // Part of a shell loop in a hint.
  ' | grep -q ',
]);

/**
 * Output a lesson names without double quotes (in a quiz choice, in parentheses, after a colon):
 * each must be in the lesson's text and in what its solution run shows, like a quoted one.
 */
const UNQUOTED: Readonly<Record<string, readonly string[]>> = {
  'failures-are-per-node': [
    'NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
  ],
  'what-real-nodes-do': ['StopPodSandbox from runtime service failed', 'Forcibly stopping sandbox'],
  'add-timeout': ['context deadline exceeded', 'signal: killed'],
  'version-check-at-load': [
    'no CNI configuration file in /etc/cni/net.d/',
    'Found CNI network containerd-net',
  ],
  'across-nodes-vxlan': ['message too long, mtu=1450'],
  'operating-a-node': ['Failed to destroy network for sandbox'],
  'failed-cleanup': ['Failed to destroy network', 'SANDBOX_UNKNOWN', 'Attempt:1'],
  'errors-and-retry': [
    'failed to setup network for sandbox',
    'no IP addresses available in range set: 10.244.1.1-10.244.1.2',
  ],
  'free-an-address': ['RunPodSandbox from runtime service failed'],
  'corrupted-cache': ['failed to get network "containerd-net" cached result'],
  'del-idempotence': ['signal: killed', 'FailedKillPod'],
};

/** Matchers name the trace, they do not quote it; the scenario is not prose. */
const SKIP = new Set(['start', 'solution', 'when', 'is', 'match', 'link', 'steps', 'last']);

function texts(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => texts(x, out));
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) if (!SKIP.has(k)) texts(x, out);
}

function lessonQuotes(l: Lesson): string[] {
  const all: string[] = [];
  texts(l, all);
  return [...new Set(all.flatMap((t) => [...t.matchAll(/"([^"]{8,})"/g)].map((m) => m[1]!)))];
}

function pattern(quote: string): RegExp {
  const parts = quote.split(/\.\.\.|…|<[a-zA-Z ]+>/);
  return new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^]*?'));
}

function strings(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => strings(x, out));
}

/** What the real plugins printed, as recorded. */
const recordings = ['fixtures', 'local']
  .flatMap((d) => {
    const dir = new URL(`../../../conformance/${d}/`, import.meta.url);
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => readFileSync(new URL(f, dir), 'utf8'));
  })
  .join('\n');

const lessons = loadCourse().lessons;

describe('quotes in lessons', () => {
  it('are many enough to matter, and prose is listed only when a lesson uses it', () => {
    const quoted = lessons.flatMap(lessonQuotes);
    expect(quoted.length).toBeGreaterThanOrEqual(25);
    for (const p of PROSE) expect(quoted, p).toContain(p);
  });

  it('unquoted output is listed only for lessons that name it', () => {
    for (const [id, list] of Object.entries(UNQUOTED)) {
      const l = lessons.find((x) => x.id === id);
      expect(l, id).toBeDefined();
      const all: string[] = [];
      texts(l, all);
      for (const q of list) expect(all.join('\n'), `${id}: ${q}`).toContain(q);
    }
  });

  it.each(lessons.map((l) => [l.id, l] as const))(
    '%s: each quote is what a node printed',
    { timeout: 60_000 },
    (_, l) => {
      const r = runLesson(l);
      if ('errors' in r) throw new Error(r.errors.join('; '));
      const seen: string[] = [];
      strings(r.run.cluster.events, seen);
      strings(r.run.cluster.sim.state, seen);
      for (const op of r.run.summary.operations) if (op.output) seen.push(op.output);
      // Event messages and journal lines quote with \" where the lesson writes ".
      const hay = seen.join('\n');
      const unescaped = hay.replaceAll('\\"', '"');
      const missing = [...lessonQuotes(l), ...(UNQUOTED[l.id] ?? [])].filter((q) => {
        if (PROSE.has(q)) return false;
        const re = pattern(q);
        return !re.test(hay) && !re.test(unescaped) && !re.test(recordings);
      });
      expect(missing).toEqual([]);
    },
  );
});
