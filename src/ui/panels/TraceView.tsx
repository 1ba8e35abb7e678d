import { loadEngine, type TraceEvent } from '../../engine';
import { useApp } from '../store';
import { StepList, type StepsSource } from './StepList';
import type { PanelProps } from './types';

const isErrorEvent = (e: TraceEvent) => loadEngine.now().isErrorEvent(e);

/** The steps around the current one, at the current detail level; a click selects a step. */
export function TraceView({ session, step, onSelectStep, slot }: PanelProps) {
  // The session that took over from the landing's precomputed trace continues its trace.
  const key = useApp((s) =>
    s.preview?.session === session && s.preview.revision === session.revision
      ? s.preview.trace
      : session,
  );
  const source: StepsSource = {
    key,
    events: session.events,
    level: session.level,
    revision: session.revision,
    failed: isErrorEvent,
  };
  return <StepList source={source} step={step} slot={slot} onSelectStep={onSelectStep} />;
}
