import type { PerformResult, SessionView } from '../../engine';

/** What `actionEnd` reads of a session: its logged actions and what they recorded. */
export interface ActionLog extends Pick<SessionView, 'cursor'> {
  readonly actions: readonly {
    readonly step: number;
    readonly first: number | null;
    readonly count: number;
  }[];
}

/**
 * Where the cursor goes after a shell line that changed the node: the last step the line
 * recorded itself (`cnitool add`'s plugin runs, the files it wrote), so that the next line reads
 * the node as the line left it. The session leaves the cursor at the action's first step, which
 * is right for the Actions view (the user steps through what follows), but a shell user expects
 * the prompt to come back after the command, not before it. Null: stay where the cursor is.
 */
export function actionEnd(session: ActionLog, r: PerformResult): number | null {
  if (r.first === null) return null;
  const a = session.actions.find((x) => x.first === r.first && x.step === r.step);
  if (!a || a.count <= 1) return null;
  const last = r.first + a.count - 1;
  return last > session.cursor ? last : null;
}
