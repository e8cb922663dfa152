/**
 * A WebAssembly module imported through vite-plugin-wasm: its exports become
 * the module's named exports, checked at run time by `toVisionExports`.
 */
declare module '*.wasm' {}
