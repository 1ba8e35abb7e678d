import { useEffect, useRef } from 'react';

/**
 * A <dialog> shown as a modal while `open` is true (showModal: focus moves in, Esc closes it,
 * the page behind is inert) and closed when it turns false. Attach the ref to the dialog.
 */
export function useModal(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return ref;
}
