import { stepDetail } from './inspector-data';
import { InspectorStep } from './InspectorStep';
import type { PanelProps } from './types';

/** The current step: its event, and what it read or changed in the world. */
export function Inspector({ session, step }: PanelProps) {
  const e = step >= 0 ? session.events[step] : undefined;
  return (
    <InspectorStep
      events={session.events}
      step={step}
      detail={e ? stepDetail(session, step) : null}
    />
  );
}
