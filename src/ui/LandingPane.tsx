/**
 * The landing's views drawn from its precomputed trace (landing-trace.ts) while it shows what the
 * session has (app/preview.ts, `previewShows`): the Steps list, the Inspector and the Pods view
 * with the panels' own components, so that the first screen shows the landing's state and steps
 * before the engine and the panels' chunk arrive, and nothing changes on screen when they do.
 */
import { useMemo } from 'react';
import type { TraceEvent } from '../engine';
import { podsAtStep, type LandingTrace } from './landing-trace';
import { InspectorStep } from './panels/InspectorStep';
import { PodsTable } from './panels/PodsTable';
import { StepList, type StepsSource } from './panels/StepList';
import { cmd, useApp } from './store';

/** The views the precomputed trace can draw, by their slot names in the app and the embed. */
export type LandingView = 'trace' | 'steps' | 'inspector' | 'pods';

export function isLandingView(name: string): name is LandingView {
  return name === 'trace' || name === 'steps' || name === 'inspector' || name === 'pods';
}

export function LandingPane({ name, trace }: { name: LandingView; trace: LandingTrace }) {
  const cursor = useApp((s) => s.cursor);
  const level = useApp((s) => s.level);
  const length = useApp((s) => s.length);
  const selected = useApp((s) => s.selectedPod);
  const source = useMemo<StepsSource>(() => {
    const failed = new Set(trace.events.filter((_, i) => trace.details[i]!.failed));
    return {
      key: trace,
      // As many events as the session would have computed by now.
      events: trace.events.slice(0, length),
      level,
      revision: 0,
      failed: (e: TraceEvent) => failed.has(e),
    };
  }, [trace, level, length]);
  if (name === 'inspector')
    return (
      <InspectorStep
        events={source.events}
        step={cursor}
        detail={cursor >= 0 ? (trace.details[cursor] ?? null) : null}
      />
    );
  if (name === 'pods')
    return <PodsTable data={podsAtStep(trace, cursor)} step={cursor} selected={selected} />;
  return <StepList source={source} step={cursor} slot={name} onSelectStep={cmd.seek} />;
}
