import { useHref, useLinkClickHandler } from 'react-router-dom';
import type { LinkTargetProps } from '../ui/link.tsx';

/**
 * The app's link: an anchor the router follows in place (a click with a
 * modifier key still opens a new tab, as an anchor does). Built from the
 * router's hooks rather than its `Link`, whose prefetching for framework
 * mode brings the data router into every page (bench/README.md, First-load
 * JavaScript).
 */
export function RouterLink({ to, onClick, target, ...anchor }: LinkTargetProps) {
  const href = useHref(to);
  const follow = useLinkClickHandler<HTMLAnchorElement>(to, { target });
  return (
    <a
      {...anchor}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) follow(event);
      }}
    />
  );
}
