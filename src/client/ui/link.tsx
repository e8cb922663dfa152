import { type AnchorHTMLAttributes, type ComponentType, createContext } from 'react';

/** What a link of the design system needs: where it goes, and an anchor's other attributes. */
export interface LinkTargetProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
}

/** The component that renders the design system's links. */
export type LinkComponent = ComponentType<LinkTargetProps>;

function Anchor({ to, ...anchor }: LinkTargetProps) {
  return <a {...anchor} href={to} />;
}

/**
 * How the design system's links go somewhere: the app provides its router's
 * link (App.tsx); the visitor's first screen, which comes without the router,
 * provides one that starts the app (features/intro/IntroPage.tsx). A plain
 * anchor otherwise.
 */
export const LinkContext = createContext<LinkComponent>(Anchor);
