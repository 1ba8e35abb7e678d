import type { Session, ViewProps } from '../../engine';

/** What the app's own panels receive: the view props, with the full session (for actions). */
export interface PanelProps extends ViewProps {
  session: Session;
  /** Which slot of the layout the panel fills (the placeholder views use it). */
  slot: string;
}
