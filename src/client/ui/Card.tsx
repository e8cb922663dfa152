import { createElement, type ReactNode, useId } from 'react';
import './ui.css';

interface CardProps {
  /** The card's heading; when given, the card is a region named by it. */
  title?: string;
  /** The heading's level in the screen's outline (h2 under the screen's h1 by default). */
  headingLevel?: 2 | 3 | 4;
  /** Controls that act on the whole card (a ButtonLink, a Chip), at the end of its header. */
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}

/**
 * A surface that groups one thing of a screen: a jail, a plan, a notice.
 * With a title it is a `<section>` labelled by its heading; without one it is
 * a plain box, so that a list of cards does not fill the landmarks.
 */
export function Card({ title, headingLevel = 2, actions, className, children }: CardProps) {
  const titleId = useId();
  const classes = ['card', className].filter(Boolean).join(' ');
  const header =
    title === undefined && actions === undefined ? null : (
      <header className="card-header">
        {title === undefined ? null : createElement(`h${headingLevel}`, { id: titleId, className: 'card-title' }, title)}
        {actions === undefined ? null : <div className="card-actions">{actions}</div>}
      </header>
    );
  if (title === undefined) {
    return (
      <div className={classes}>
        {header}
        {children}
      </div>
    );
  }
  return (
    <section className={classes} aria-labelledby={titleId}>
      {header}
      {children}
    </section>
  );
}
