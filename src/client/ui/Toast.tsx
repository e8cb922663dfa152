import type { LucideIcon } from 'lucide-react';
import { useEffect } from 'react';
import './ui.css';

/** How long a toast stays, long enough to read a sentence twice. */
export const TOAST_DURATION_MS = 5000;

interface ToastProps {
  /** The message shown now, or null for none: one at a time, a new one replaces the last. */
  message: string | null;
  /** Called when the message has been shown for `durationMs`: the owner sets it back to null. */
  onDismiss(): void;
  icon?: LucideIcon;
  durationMs?: number;
}

/**
 * A short polite message at the foot of the screen that goes away by itself
 * ("You are back online."). Nothing to act on: what needs an answer is a
 * banner or a sheet. The status region is always there, empty when quiet, so
 * that screen readers announce the message when it is put in.
 */
export function Toast({ message, onDismiss, icon: Icon, durationMs = TOAST_DURATION_MS }: ToastProps) {
  useEffect(() => {
    if (message === null) return;
    const timer = setTimeout(onDismiss, durationMs);
    return () => clearTimeout(timer);
  }, [message, onDismiss, durationMs]);
  return (
    <div className="toast-region" role="status">
      {message === null ? null : (
        <p className="toast">
          {Icon === undefined ? null : <Icon className="toast-icon" aria-hidden="true" focusable="false" size={20} />}
          <span>{message}</span>
        </p>
      )}
    </div>
  );
}
