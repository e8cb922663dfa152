import { describe, expect, it } from 'vitest';
import { chunkCycle, HANDED_ON, layerOf, type ModuleNode, pageLayers } from './page-chunks.ts';

/** A module graph: id -> [static imports, code]. */
function graph(modules: Record<string, [string[], string?]>): (id: string) => ModuleNode | null {
  return (id) => {
    const module = modules[id];
    return module === undefined ? null : { id, importedIds: module[0], code: module[1] ?? '' };
  };
}

describe('pageLayers', () => {
  // main -> react; main -> intro -> button; start -> app -> react, button, router; list -> app, list-rules.
  const modules = graph({
    '/src/main.tsx': [['/lib/react.js', '/src/intro.tsx']],
    '/src/intro.tsx': [['/src/button.tsx']],
    '/src/button.tsx': [['/lib/react.js']],
    '/lib/react.js': [[]],
    '/src/start.tsx': [['/src/app.tsx']],
    '/src/app.tsx': [['/lib/react.js', '/src/button.tsx', '/lib/router.js']],
    '/lib/router.js': [['/lib/react.js']],
    '/src/list.tsx': [['/src/app.tsx', '/src/list-rules.ts']],
    '/src/list-rules.ts': [[]],
  });
  const layers = pageLayers(
    [
      { name: 'shell', roots: ['/src/start.tsx'] },
      { name: 'home', roots: ['/src/list.tsx'] },
    ],
    ['/src/main.tsx'],
    modules,
  );

  it('puts in each layer what its roots reach that the first screen and earlier layers do not', () => {
    expect([...(layers.get('shell') ?? [])].sort()).toEqual(['/lib/router.js', '/src/app.tsx', '/src/start.tsx']);
    expect([...(layers.get('home') ?? [])].sort()).toEqual(['/src/list-rules.ts', '/src/list.tsx']);
    expect(layers.get(HANDED_ON)?.size).toBe(0);
  });

  it('leaves what the first screen reaches to the bundler', () => {
    for (const id of ['/src/main.tsx', '/src/intro.tsx', '/src/button.tsx', '/lib/react.js']) expect(layerOf(layers, id), id).toBeNull();
    expect(layerOf(layers, '/src/app.tsx')).toBe('shell');
    expect(layerOf(layers, '/src/unknown.ts')).toBeNull();
  });

  it("takes what a package's index hands on to the first screen and a layer into a chunk of its own", () => {
    // The first screen uses `useT` through the package's index; the shell uses `useT` and `Provider` through it too.
    const withIndex = graph({
      '/src/main.tsx': [['/lib/i18n/index.js']],
      '/lib/i18n/index.js': [
        ['/lib/i18n/useT.js', '/lib/i18n/Provider.js', '/lib/i18n/Trans.js'],
        "export { useT } from './useT.js';\nexport { Provider } from './Provider.js';\nexport * from './Trans.js';\nexport const date = () => '';",
      ],
      '/lib/i18n/useT.js': [['/lib/i18n/context.js'], "import { context } from './context.js';"],
      '/lib/i18n/context.js': [[]],
      '/lib/i18n/Provider.js': [['/lib/i18n/context.js']],
      '/lib/i18n/Trans.js': [[]],
      '/src/start.tsx': [['/lib/i18n/index.js', '/src/app.tsx']],
      '/src/app.tsx': [[]],
    });
    const split = pageLayers([{ name: 'shell', roots: ['/src/start.tsx'] }], ['/src/main.tsx'], withIndex);
    expect([...(split.get('shell') ?? [])].sort()).toEqual(['/src/app.tsx', '/src/start.tsx']);
    // Everything the index hands on, not the index itself (the first screen imports it directly).
    expect([...(split.get(HANDED_ON) ?? [])].sort()).toEqual(['/lib/i18n/Provider.js', '/lib/i18n/Trans.js', '/lib/i18n/context.js', '/lib/i18n/useT.js']);
  });
});

describe('chunkCycle', () => {
  it('finds chunks that import each other, through others too', () => {
    expect(
      chunkCycle([
        { fileName: 'main.js', imports: ['react.js'] },
        { fileName: 'react.js', imports: [] },
        { fileName: 'shell.js', imports: ['react.js', 'start.js'] },
        { fileName: 'start.js', imports: ['icons.js'] },
        { fileName: 'icons.js', imports: ['shell.js'] },
      ]),
    ).toEqual(['shell.js', 'start.js', 'icons.js', 'shell.js']);
  });

  it('finds none where imports go one way, shared chunks included', () => {
    expect(
      chunkCycle([
        { fileName: 'main.js', imports: ['react.js', 'shell.js'] },
        { fileName: 'home.js', imports: ['shell.js', 'react.js'] },
        { fileName: 'shell.js', imports: ['react.js'] },
        { fileName: 'react.js', imports: [] },
      ]),
    ).toBeNull();
  });
});
