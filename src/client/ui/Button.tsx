import type { LucideIcon } from 'lucide-react';
import { type ButtonHTMLAttributes, type ReactNode, use } from 'react';
import { LinkContext, type LinkTargetProps } from './link.tsx';
import './ui.css';

/**
 * What a button does, which sets its look: the one main action of a screen
 * (`primary`), another action (`secondary`), one that loses something
 * (`danger`), or a quiet one inside text or a menu (`ghost`).
 */
export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

interface ButtonLook {
  variant?: ButtonVariant;
  /** A lucide icon shown before the label (decorative: the label names the button). */
  icon?: LucideIcon;
  /** Full width on a phone, for the main action at the foot of a form. */
  wide?: boolean;
  children: ReactNode;
}

/** The class list of a button of this look; the same classes style links that act as buttons. */
function buttonClass({ variant = 'primary', wide = false }: Pick<ButtonLook, 'variant' | 'wide'>, extra?: string): string {
  return ['button', variant === 'primary' ? null : variant, wide ? 'wide' : null, extra].filter(Boolean).join(' ');
}

function Label({ icon: Icon, children }: Pick<ButtonLook, 'icon' | 'children'>) {
  return (
    <>
      {Icon === undefined ? null : <Icon className="button-icon" aria-hidden="true" focusable="false" size={20} strokeWidth={2} />}
      <span>{children}</span>
    </>
  );
}

/** A button of the design system; `type` defaults to "button" so that it never submits a form by accident. */
export function Button({ variant, icon, wide, children, className, type = 'button', ...button }: ButtonLook & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button {...button} type={type} className={buttonClass({ variant, wide }, className)}>
      <Label icon={icon}>{children}</Label>
    </button>
  );
}

/** A link that looks like a button (it goes somewhere rather than doing something). */
export function ButtonLink({ variant, icon, wide, children, className, ...link }: ButtonLook & LinkTargetProps) {
  const Link = use(LinkContext);
  return (
    <Link {...link} className={buttonClass({ variant, wide }, className)}>
      <Label icon={icon}>{children}</Label>
    </Link>
  );
}
