import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabDef<K extends string> {
  key: K;
  label: string;
}

/**
 * Accessible tabs (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs, only the
 * selected panel is rendered.
 */
export function Tabs<K extends string>(props: {
  label: string;
  tabs: readonly TabDef<K>[];
  selected: K;
  /** `how`: a click (or Enter / Space on the tab) or the arrow keys, Home and End. */
  onSelect(k: K, how: 'click' | 'keys'): void;
  children: ReactNode;
  className?: string;
}) {
  const id = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const { tabs, selected, onSelect } = props;
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = tabs.findIndex((t) => t.key === selected);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    e.preventDefault();
    e.stopPropagation();
    const k = tabs[next]!.key;
    onSelect(k, 'keys');
    refs.current.get(k)?.focus();
  };
  return (
    <div className={`tabs ${props.className ?? ''}`}>
      <div role="tablist" aria-label={props.label} className="tablist" onKeyDown={onKey}>
        {tabs.map((t) => (
          <button
            key={t.key}
            ref={(el) => {
              if (el) refs.current.set(t.key, el);
              else refs.current.delete(t.key);
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${t.key}`}
            aria-selected={t.key === selected}
            aria-controls={`${id}-panel`}
            tabIndex={t.key === selected ? 0 : -1}
            onClick={() => onSelect(t.key, 'click')}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${selected}`}
        className="tabpanel"
        tabIndex={0}
      >
        {props.children}
      </div>
    </div>
  );
}
