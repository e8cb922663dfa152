import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotateReactRouter } from './pure-react-router.ts';

describe('annotateReactRouter', () => {
  it('marks top-level components and contexts pure and empties their display names, keeping every line', () => {
    const code = [
      'var Link = React10.forwardRef(',
      '  function LinkWithRef() {}',
      ');',
      'Link.displayName = "Link";',
      'var RouteContext = React.createContext(null);',
      'RouteContext.displayName = "Route";',
      'function inner() {',
      '  let FetcherForm2 = React10.forwardRef(render);',
      '  FetcherForm2.displayName = "fetcher.Form";',
      '}',
    ].join('\n');
    expect(annotateReactRouter(code).split('\n')).toEqual([
      'var Link = /* @__PURE__ */ React10.forwardRef(',
      '  function LinkWithRef() {}',
      ');',
      '',
      'var RouteContext = /* @__PURE__ */ React.createContext(null);',
      '',
      'function inner() {',
      '  let FetcherForm2 = React10.forwardRef(render);',
      '  FetcherForm2.displayName = "fetcher.Form";',
      '}',
    ]);
  });

  it('still finds what it marks in the installed React Router', () => {
    // React Router comes with react-router-dom, which the app depends on.
    const fromRouterDom = createRequire(createRequire(import.meta.url).resolve('react-router-dom/package.json'));
    const dist = join(dirname(fromRouterDom.resolve('react-router/package.json')), 'dist');
    const chunks = readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.mjs'))
      .map((name) => readFileSync(join(dist, name), 'utf8'))
      .filter((code) => code.includes('var Link = '));
    // The development and the production build, each with Link in one chunk.
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) {
      const annotated = annotateReactRouter(chunk);
      expect(annotated).toContain('var Link = /* @__PURE__ */ React');
      expect(annotated).toContain('var NavLink = /* @__PURE__ */ React');
      expect(annotated).not.toMatch(/^[\w$]+\.displayName = /m);
      expect(annotated.split('\n')).toHaveLength(chunk.split('\n').length);
    }
  });
});
