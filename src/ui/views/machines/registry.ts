/**
 * Titles and reading order of the machine kinds (by the name actors carry in
 * `ActorRecord.machine`, the keys of `SessionView.machines`). Kinds not listed here are drawn
 * too, after these, titled by their name.
 */
import type { AnyStateMachine } from 'xstate';
import { chartOf, layoutChart, type Chart, type ChartLayout } from './model';

const TITLES: ReadonlyArray<[string, string]> = [
  ['kubelet', 'kubelet'],
  ['podWorker', 'kubelet pod worker'],
  ['containerd', 'containerd'],
  ['sandbox', 'containerd sandbox'],
  ['libcniCall', 'libcni call'],
  ['libcni', 'libcni call'],
  ['process', 'plugin process'],
];

export interface MachineKind {
  kind: string;
  title: string;
  machine: AnyStateMachine;
  chart: Chart;
  layout: ChartLayout;
}

const drawn = new WeakMap<AnyStateMachine, { chart: Chart; layout: ChartLayout }>();

/** Charts of a machine are computed once per definition. */
export function drawnChart(machine: AnyStateMachine): { chart: Chart; layout: ChartLayout } {
  let d = drawn.get(machine);
  if (!d) {
    const chart = chartOf(machine);
    d = { chart, layout: layoutChart(chart) };
    drawn.set(machine, d);
  }
  return d;
}

export function machineKinds(machines: Readonly<Record<string, AnyStateMachine>>): MachineKind[] {
  const order = new Map(TITLES.map(([k], i) => [k, i]));
  const title = new Map(TITLES);
  return Object.entries(machines)
    .sort(([a], [b]) => (order.get(a) ?? 99) - (order.get(b) ?? 99) || (a < b ? -1 : 1))
    .map(([kind, machine]) => ({
      kind,
      title: title.get(kind) ?? kind,
      machine,
      ...drawnChart(machine),
    }));
}
