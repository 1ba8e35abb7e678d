import { loadEngine, type TraceEvent } from '../../engine';
import { StepList, type StepsSource } from './StepList';
import type { PanelProps } from './types';

const isErrorEvent = (e: TraceEvent) => loadEngine.now().isErrorEvent(e);

/** The steps around the current one, at the current detail level; a click selects a step. */
export function TraceView({ session, step, onSelectStep }: PanelProps) {
  const source: StepsSource = {
    key: session,
    events: session.events,
    level: session.level,
    revision: session.revision,
    failed: isErrorEvent,
  };
  return <StepList source={source} step={step} onSelectStep={onSelectStep} />;
}
