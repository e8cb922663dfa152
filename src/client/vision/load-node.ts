/**
 * Loads the built vision wasm modules in Node (tests and benchmarks):
 * `crates/vision/pkg/vision-simd.wasm` and `vision-scalar.wasm`, produced by
 * `node scripts/build-wasm.mjs`. The browser instantiates them in the worker
 * instead.
 */

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { toVisionExports, type VisionExports } from './analyser';

export type WasmFlavour = 'simd' | 'scalar';

/** Where the build puts the modules. */
export const WASM_DIR = fileURLToPath(new URL('../../../crates/vision/pkg/', import.meta.url));

export function wasmPath(flavour: WasmFlavour, dir = WASM_DIR): string {
  return `${dir.endsWith('/') ? dir : `${dir}/`}vision-${flavour}.wasm`;
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

/** The face model the build writes beside the modules (scripts/face-model.mjs). */
export async function loadFaceModelBytes(dir = WASM_DIR): Promise<Uint8Array> {
  const path = `${dir.endsWith('/') ? dir : `${dir}/`}face-model.bin`;
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    if (isMissingFile(error)) throw new Error(`${path} is missing: write it with \`node scripts/build-wasm.mjs\``);
    throw error;
  }
}

/** Compiles and instantiates one flavour; throws a clear error when it is not built. */
export async function loadVisionWasm(flavour: WasmFlavour, dir = WASM_DIR): Promise<VisionExports> {
  const path = wasmPath(flavour, dir);
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    if (isMissingFile(error)) {
      throw new Error(`${path} is missing: build the vision crate first with \`node scripts/build-wasm.mjs\``);
    }
    throw error;
  }
  const module = await WebAssembly.compile(bytes);
  const imports = WebAssembly.Module.imports(module);
  if (imports.length > 0) {
    const names = imports.map((entry) => `${entry.module}.${entry.name}`).join(', ');
    throw new Error(`${path} imports ${names}; the vision crate must not need any imports`);
  }
  const instance = await WebAssembly.instantiate(module, {});
  return toVisionExports(instance.exports, path);
}
