/**
 * Where the cluster finds CRI-O (runtime/crio.ts) without importing it: the landing's engine
 * (landing.ts) runs only containerd nodes and leaves CRI-O out. `runtime/crio-late.ts` provides
 * it; everything that may build a CRI-O node imports that module (as plugins/late.ts for the
 * late plugins). Building a CRI-O node before throws: never a node that behaves otherwise.
 */
import type { Crio, crioSettings, newCrioState } from './crio';

export interface CrioModule {
  Crio: typeof Crio;
  crioSettings: typeof crioSettings;
  newCrioState: typeof newCrioState;
}

let provided: CrioModule | null = null;

export function provideCrio(m: CrioModule): void {
  provided = m;
}

export function crioModule(): CrioModule {
  if (!provided) throw new Error('cnisim: CRI-O is not loaded (import runtime/crio-late.ts)');
  return provided;
}
