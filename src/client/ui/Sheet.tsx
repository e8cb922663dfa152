import X from 'lucide-react/icons/x';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import './ui.css';

interface SheetProps {
  open: boolean;
  title: string;
  /** The close button's accessible name, in the screen's language. */
  closeLabel: string;
  onClose(): void;
  children: ReactNode;
}

/**
 * A modal sheet: it rises from the bottom on a phone and stands in the
 * middle on a desktop. It is the browser's own `<dialog>` opened with
 * `showModal()`, which keeps the focus inside, makes the page behind it
 * inert and closes on Escape, so no library is needed for that.
 */
export function Sheet({ open, title, closeLabel, onClose, children }: SheetProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className="sheet"
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <header className="sheet-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label={closeLabel} onClick={onClose}>
          <X aria-hidden="true" focusable="false" size={20} />
        </button>
      </header>
      {open ? <div className="sheet-body">{children}</div> : null}
    </dialog>
  );
}
