import type { Plugin } from 'vite';

/** React Router's bundled files (one big chunk each, ESM). */
const ROUTER_DIST = /[\\/]node_modules[\\/]react-router[\\/]dist[\\/].*\.mjs$/;

/** A top-level component or context made by React: `var Link = React10.forwardRef(`. */
const TOP_LEVEL_REACT_CALL = /^var ([\w$]+) = (React\d*\.(?:forwardRef|memo|createContext))\(/gm;

/** A top-level name given for React's developer tools: `Link.displayName = "Link";`. */
const TOP_LEVEL_DISPLAY_NAME = /^[\w$]+\.displayName = "[^"\n]*";$/gm;

/**
 * Lets the bundler drop what the app does not use of React Router. The
 * library makes its components and contexts at the top level with calls the
 * bundler must assume have effects, then names them for React's developer
 * tools, so `Link`, `NavLink`, `Form` and everything they reach (the data
 * router, framework mode's prefetching) stay in every build that imports the
 * package. Marking those calls pure and leaving out the names (which
 * production builds never show; the lines stay, empty, so that source maps
 * still hold) is what the library's own open change
 * proposes (remix-run/react-router#15299; issue #14058).
 */
export function annotateReactRouter(code: string): string {
  return code.replace(TOP_LEVEL_REACT_CALL, 'var $1 = /* @__PURE__ */ $2(').replace(TOP_LEVEL_DISPLAY_NAME, '');
}

/** The Vite plugin that applies `annotateReactRouter` to React Router's files. */
export function pureReactRouter(): Plugin {
  return {
    name: 'warden:pure-react-router',
    apply: 'build',
    transform(code, id) {
      return ROUTER_DIST.test(id) ? { code: annotateReactRouter(code), map: null } : null;
    },
  };
}
