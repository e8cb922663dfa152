import { dirname, resolve } from 'node:path';

/** A module as the bundler's chunking sees it: its id, code and static imports. */
export interface ModuleNode {
  id: string;
  code: string | null;
  importedIds: readonly string[];
}

/** `export { … } from '…'` and `export * from '…'`: what a module hands on from another. */
const RE_EXPORT = /\bexport\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*['"]([^'"]+)['"]/g;

/** The modules `node` only hands on (its relative re-exports), by id. */
function reExported(node: ModuleNode): Set<string> {
  const handedOn = new Set<string>();
  for (const [, specifier] of (node.code ?? '').matchAll(RE_EXPORT)) {
    if (specifier === undefined || !specifier.startsWith('.')) continue;
    const path = resolve(dirname(node.id), specifier);
    for (const id of node.importedIds) if (id === path || id.replace(/\.[cm]?[jt]sx?$/, '') === path.replace(/\.[cm]?[jt]sx?$/, '')) handedOn.add(id);
  }
  return handedOn;
}

/** A page's layers by name, each the modules of one chunk. */
export type PageLayers = Map<string, ReadonlySet<string>>;

/**
 * `roots` and every module they import statically, through `moduleOf` (a
 * module it does not know is left out); with `throughReExports` false, not
 * through what a module only hands on, such as a package's index.
 */
function staticClosure(roots: readonly string[], moduleOf: (id: string) => ModuleNode | null, throughReExports = true): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    const node = moduleOf(id);
    if (node === null) continue;
    seen.add(id);
    const handedOn = throughReExports ? new Set<string>() : reExported(node);
    pending.push(...node.importedIds.filter((imported) => !handedOn.has(imported)));
  }
  return seen;
}

/** The name of the chunk of the library parts that a package's index hands to both the first screen and the layers. */
export const HANDED_ON = 'lib-parts';

/**
 * Splits what a page loads into layers, one chunk each: a layer holds what
 * its roots import statically that neither `before` (left to the bundler)
 * nor an earlier layer holds. A layer's modules can then import only from
 * `before`, earlier layers and their own, so the chunks import each other in
 * one direction and run in the order of the modules.
 *
 * A package's index (react-i18next's) reaches all of the package, so the
 * parts a layer uses count as `before`'s though `before` may not use them;
 * the bundler would put those the layer alone uses in a chunk that imports
 * the layer, a cycle. They go to one more chunk, `HANDED_ON`, which
 * `before` imports where it uses one of them.
 */
export function pageLayers(
  layers: readonly { name: string; roots: readonly string[] }[],
  before: readonly string[],
  moduleOf: (id: string) => ModuleNode | null,
): PageLayers {
  const beforeReaches = staticClosure(before, moduleOf);
  const beforeUses = staticClosure(before, moduleOf, false);
  const taken = new Set(beforeReaches);
  const result: PageLayers = new Map();
  const handedOn = new Set<string>();
  for (const { name, roots } of layers) {
    const reached = staticClosure(roots, moduleOf);
    const layer = new Set([...reached].filter((id) => !taken.has(id)));
    for (const id of layer) taken.add(id);
    for (const id of reached) if (beforeReaches.has(id) && !beforeUses.has(id)) handedOn.add(id);
    result.set(name, layer);
  }
  result.set(HANDED_ON, handedOn);
  return result;
}

/** The name of the layer that holds `id`, or null when none does. */
export function layerOf(layers: PageLayers, id: string): string | null {
  for (const [name, modules] of layers) if (modules.has(id)) return name;
  return null;
}

/** A chunk as the bundle has it: its file and the chunks it imports statically. */
export interface ChunkNode {
  fileName: string;
  imports: readonly string[];
}

/**
 * A cycle of static imports among `chunks` (file names, the first repeated
 * at the end), or null. Chunks that import each other may run a module
 * before one it needs, which the bundler does not guard against once
 * modules are grouped by hand.
 */
export function chunkCycle(chunks: readonly ChunkNode[]): string[] | null {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): string[] | null => {
    const open = path.indexOf(file);
    if (open !== -1) return [...path.slice(open), file];
    if (done.has(file)) return null;
    path.push(file);
    for (const imported of byFile.get(file)?.imports ?? []) {
      const cycle = visit(imported);
      if (cycle !== null) return cycle;
    }
    path.pop();
    done.add(file);
    return null;
  };
  for (const chunk of chunks) {
    const cycle = visit(chunk.fileName);
    if (cycle !== null) return cycle;
  }
  return null;
}
