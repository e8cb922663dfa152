// Builds crates/vision to WebAssembly twice with Debian's Rust 1.63:
//
//   crates/vision/pkg/vision-simd.wasm    128-bit SIMD (on by .cargo/config.toml)
//   crates/vision/pkg/vision-scalar.wasm  no SIMD, for browsers without it
//
// First it writes src/client/vision/params.generated.ts and layout.generated.ts
// from the crate's params.rs and layout.rs (scripts/vision-params.mjs), and
// crates/vision/pkg/face-model.bin from OpenCV's cascade when the XML or
// scripts/face-model.mjs is newer (scripts/face-model.mjs), whatever the
// state of the modules.
//
// Skips the build when both outputs are newer than every input. After a build
// each module is decoded instruction by instruction (not a byte scan): the
// scalar module must contain no SIMD instruction or v128 local, the SIMD one
// must contain some, and both must export the ABI of docs/vision.md.
//
// Usage: node scripts/build-wasm.mjs [--force]

import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, CARGO, cargoEnv, run, step, wasmOpt } from './ensure.mjs';
import { faceModelOutputs, writeFaceModel } from './face-model.mjs';
import { writeGeneratedModules } from './vision-params.mjs';

const TARGET = 'wasm32-unknown-unknown';

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/** Every file whose change calls for a rebuild. */
export function wasmInputs(root = ROOT) {
  const candidates = [
    ...listFiles(join(root, 'crates', 'vision', 'src')),
    join(root, 'Cargo.toml'),
    join(root, 'Cargo.lock'),
    join(root, 'crates', 'vision', 'Cargo.toml'),
    join(root, '.cargo', 'config.toml'),
    join(root, 'scripts', 'build-wasm.mjs'),
  ];
  return candidates.filter((path) => existsSync(path));
}

/** Where the two modules land. */
export function wasmOutputs(root = ROOT) {
  const pkg = join(root, 'crates', 'vision', 'pkg');
  return { simd: join(pkg, 'vision-simd.wasm'), scalar: join(pkg, 'vision-scalar.wasm') };
}

function upToDate(root) {
  const outputs = Object.values(wasmOutputs(root));
  if (!outputs.every((path) => existsSync(path))) return false;
  const oldestOutput = Math.min(...outputs.map((path) => statSync(path).mtimeMs));
  const newestInput = Math.max(0, ...wasmInputs(root).map((path) => statSync(path).mtimeMs));
  return oldestOutput > newestInput;
}

// ---------------------------------------------------------------------------
// A small WebAssembly decoder: enough to walk every instruction of the code
// section and count the SIMD ones (prefix 0xFD) exactly. Unknown opcodes are
// an error rather than a guess, so the count can be trusted.

class Reader {
  constructor(bytes, offset = 0, end = bytes.length) {
    this.bytes = bytes;
    this.offset = offset;
    this.end = end;
  }
  byte() {
    if (this.offset >= this.end) throw new Error('unexpected end of wasm');
    return this.bytes[this.offset++];
  }
  /** Unsigned LEB128 (up to 32 bits used, as in indices and sizes). */
  u32() {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      if (shift < 32) result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
      if (shift > 70) throw new Error('LEB128 too long');
    }
  }
  /** Any LEB128, signed or not, whose value is not needed. */
  skipLeb() {
    for (let i = 0; ; i++) {
      if ((this.byte() & 0x80) === 0) return;
      if (i > 10) throw new Error('LEB128 too long');
    }
  }
  skip(count) {
    if (this.offset + count > this.end) throw new Error('unexpected end of wasm');
    this.offset += count;
  }
  memarg() {
    this.u32(); // alignment
    this.skipLeb(); // offset
  }
}

const VALUE_TYPES = new Set([0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f]);
const V128 = 0x7b;

function blockType(reader) {
  const b = reader.bytes[reader.offset];
  if (b === 0x40 || VALUE_TYPES.has(b)) reader.skip(1);
  else reader.skipLeb(); // s33 type index
}

function simdImmediates(reader, op) {
  if (op <= 11 || op === 92 || op === 93) reader.memarg();
  else if (op === 12 || op === 13)
    reader.skip(16); // v128.const, i8x16.shuffle
  else if (op >= 21 && op <= 34)
    reader.skip(1); // extract/replace lane
  else if (op >= 84 && op <= 91) {
    reader.memarg(); // load/store lane
    reader.skip(1);
  }
}

/**
 * Decodes one instruction, returning true when it is a SIMD instruction and
 * adding the post-MVP feature it needs, if any, to `features` (named as
 * wasm-opt's --enable-<feature> flags).
 */
function instruction(reader, features) {
  const op = reader.byte();
  if (op === 0xfd) {
    simdImmediates(reader, reader.u32());
    features.add('simd');
    return true;
  }
  if (op <= 0x01 || op === 0x05 || op === 0x0b || op === 0x0f || op === 0x1a || op === 0x1b) return false;
  if (op >= 0xc0 && op <= 0xc4) {
    features.add('sign-ext');
    return false;
  }
  if (op >= 0x45 && op <= 0xbf) return false; // numeric
  if (op === 0xd1) {
    features.add('reference-types'); // ref.is_null
    return false;
  }
  switch (op) {
    case 0x02: // block
    case 0x03: // loop
    case 0x04: // if
      blockType(reader);
      return false;
    case 0x0c: // br
    case 0x0d: // br_if
    case 0x10: // call
      reader.u32();
      return false;
    case 0x12: // return_call
      features.add('tail-call');
      reader.u32();
      return false;
    case 0xd2: // ref.func
      features.add('reference-types');
      reader.u32();
      return false;
    case 0x0e: {
      // br_table
      const count = reader.u32();
      for (let i = 0; i <= count; i++) reader.u32();
      return false;
    }
    case 0x13: // return_call_indirect
      features.add('tail-call');
      reader.u32();
      reader.u32();
      return false;
    case 0x11: // call_indirect
      reader.u32();
      reader.u32();
      return false;
    case 0x1c: {
      // select t*
      features.add('reference-types');
      const count = reader.u32();
      reader.skip(count);
      return false;
    }
    case 0x41: // i32.const
    case 0x42: // i64.const
      reader.skipLeb();
      return false;
    case 0x43:
      reader.skip(4); // f32.const
      return false;
    case 0x44:
      reader.skip(8); // f64.const
      return false;
    case 0x3f: // memory.size
    case 0x40: // memory.grow
      reader.skip(1);
      return false;
    case 0xd0: // ref.null
      features.add('reference-types');
      reader.skip(1);
      return false;
    case 0xfc: {
      const sub = reader.u32();
      if (sub <= 7) {
        features.add('nontrapping-float-to-int');
        return false;
      }
      features.add(sub <= 11 ? 'bulk-memory' : 'reference-types');
      if (sub === 8) {
        reader.u32(); // memory.init
        reader.skip(1);
      } else if (sub === 10)
        reader.skip(2); // memory.copy
      else if (sub === 11)
        reader.skip(1); // memory.fill
      else if (sub === 12 || sub === 14) {
        reader.u32();
        reader.u32();
      } else if (sub <= 17) reader.u32();
      else throw new Error(`unknown instruction 0xfc ${sub}`);
      return false;
    }
    case 0xfe: {
      features.add('threads');
      const sub = reader.u32();
      if (sub === 0x03) reader.skip(1);
      else reader.memarg();
      return false;
    }
    default:
      if (op >= 0x20 && op <= 0x26) {
        if (op >= 0x25) features.add('reference-types'); // table.get/set
        reader.u32(); // local.*, global.*
        return false;
      }
      if (op >= 0x28 && op <= 0x3e) {
        reader.memarg(); // loads and stores
        return false;
      }
      throw new Error(`unknown opcode 0x${op.toString(16)} at byte ${reader.offset - 1}`);
  }
}

/**
 * Walks every function body of a module and counts its SIMD instructions and
 * v128 locals, and lists the post-MVP features its code uses.
 */
export function inspectWasm(bytes) {
  const reader = new Reader(bytes);
  const magic = [0x00, 0x61, 0x73, 0x6d];
  for (const b of magic) if (reader.byte() !== b) throw new Error('not a wasm module');
  reader.skip(4); // version
  let simdInstructions = 0;
  let v128Locals = 0;
  let functions = 0;
  let instructions = 0;
  const features = new Set();
  while (reader.offset < reader.end) {
    const id = reader.byte();
    const size = reader.u32();
    const sectionEnd = reader.offset + size;
    if (id === 10) {
      const count = reader.u32();
      for (let f = 0; f < count; f++) {
        const bodySize = reader.u32();
        const bodyEnd = reader.offset + bodySize;
        const body = new Reader(bytes, reader.offset, bodyEnd);
        const groups = body.u32();
        for (let g = 0; g < groups; g++) {
          const n = body.u32();
          if (body.byte() === V128) v128Locals += n;
        }
        while (body.offset < bodyEnd) {
          if (instruction(body, features)) simdInstructions++;
          instructions++;
        }
        functions++;
        reader.offset = bodyEnd;
      }
    }
    reader.offset = sectionEnd;
  }
  if (v128Locals > 0) features.add('simd');
  return { functions, instructions, simdInstructions, v128Locals, features: [...features].sort() };
}

// ---------------------------------------------------------------------------

function releaseWasm(targetDir) {
  const dir = join(targetDir, TARGET, 'release');
  const named = join(dir, 'vision.wasm');
  if (existsSync(named)) return named;
  const found = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.wasm')) : [];
  if (found.length === 1) return join(dir, found[0]);
  throw new Error(`no vision.wasm in ${dir} (is crates/vision a cdylib?)`);
}

function cargoBuild(root, label, targetDir, rustflags) {
  step(`cargo build ${label} (${relative(root, targetDir)})`);
  const env = cargoEnv();
  // The SIMD build takes its flags from .cargo/config.toml, which any of these
  // would override; the scalar build overrides it on purpose.
  for (const name of ['RUSTFLAGS', 'CARGO_ENCODED_RUSTFLAGS', 'CARGO_BUILD_RUSTFLAGS', 'CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS']) {
    delete env[name];
  }
  if (rustflags !== undefined) env.RUSTFLAGS = rustflags;
  const args = ['build', '--release', '--offline', '--target', TARGET, '-p', 'vision', '--target-dir', targetDir];
  const status = run(CARGO, args, { cwd: root, env });
  if (status !== 0) throw new Error(`cargo build ${label} failed (exit ${status})`);
  return releaseWasm(targetDir);
}

/**
 * Runs wasm-opt -O3 when installed, else copies. The release build strips the
 * target_features section, so wasm-opt is told the features exactly: none
 * beyond the MVP but those the module already uses (simd, and whatever else
 * the cargo flags turned on), so that it never introduces a new one.
 *
 * --converge repeats the passes while the module shrinks (30 bytes gzipped,
 * a second more). --low-memory-unused lets wasm-opt fold constant address additions into the
 * loads' and stores' offsets (0.7 KB of the gzipped SIMD module,
 * docs/vision.md, "Measured"). It holds for these modules: Rust lays the
 * stack out first, its 1 MB below the data, growing down from 1 MB, so the
 * first 1 KB would only be reached by a stack nearly 1 MB deep (the crate's
 * largest frame is under 1 KB, and nothing recurses), and the crate's allocator hands out only memory
 * past the module's initial memory (crates/vision/src/allocator.rs).
 */
function optimise(input, output) {
  const tool = wasmOpt();
  if (tool === null) {
    copyFileSync(input, output);
    return false;
  }
  const { features } = inspectWasm(readFileSync(input));
  const args = ['-O3', '--converge', '--low-memory-unused', '--mvp-features', ...features.map((feature) => `--enable-${feature}`), input, '-o', output];
  const status = run(tool, args);
  if (status !== 0) throw new Error(`wasm-opt failed on ${input} (exit ${status})`);
  return true;
}

function check(path, simd) {
  const bytes = readFileSync(path);
  const stats = inspectWasm(bytes);
  // Compiles, or throws. The exports are checked where they are used
  // (toVisionExports), which the unit tests run on both builds.
  new WebAssembly.Module(bytes);
  if (simd && stats.simdInstructions === 0) {
    throw new Error(`${path} has no SIMD instruction: was simd128 turned off (RUSTFLAGS)?`);
  }
  if (!simd && (stats.simdInstructions > 0 || stats.v128Locals > 0)) {
    throw new Error(`${path} has ${stats.simdInstructions} SIMD instructions and ${stats.v128Locals} v128 locals`);
  }
  return { size: bytes.length, ...stats };
}

function featureList(stats) {
  return stats.features.length === 0 ? 'MVP only' : stats.features.join(', ');
}

function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/**
 * Builds both modules unless they are up to date. Returns their paths.
 * Throws on any failure.
 */
export function buildWasm({ root = ROOT, force = false } = {}) {
  const outputs = wasmOutputs(root);
  if (!existsSync(join(root, 'crates', 'vision', 'Cargo.toml'))) {
    throw new Error(`crates/vision/Cargo.toml is missing in ${root}`);
  }
  for (const written of writeGeneratedModules(root)) console.log(`  wrote ${written} from the crate`);
  if (writeFaceModel({ root, force })) console.log(`  wrote ${relative(root, faceModelOutputs(root).model)} from OpenCV's LBP face cascade`);
  if (!force && upToDate(root)) {
    for (const [name, path] of Object.entries(outputs)) {
      console.log(`  ${name.padEnd(6)} ${kib(statSync(path).size).padStart(10)}  ${relative(root, path)} (up to date)`);
    }
    return outputs;
  }
  const simdRaw = cargoBuild(root, 'simd128', join(root, 'target', 'wasm-simd'), undefined);
  const scalarRaw = cargoBuild(root, 'scalar', join(root, 'target', 'wasm-scalar'), '-Ctarget-feature=-simd128');

  mkdirSync(join(root, 'crates', 'vision', 'pkg'), { recursive: true });
  const optimised = optimise(simdRaw, outputs.simd);
  optimise(scalarRaw, outputs.scalar);

  const simd = check(outputs.simd, true);
  const scalar = check(outputs.scalar, false);
  console.log(`  wasm-opt: ${optimised ? 'applied (-O3 --converge --low-memory-unused)' : 'not installed, modules copied as built'}`);
  console.log(
    `  simd   ${kib(simd.size).padStart(10)}  ${relative(root, outputs.simd)}  (${simd.functions} functions, ${simd.simdInstructions} of ${simd.instructions} instructions SIMD; features: ${featureList(simd)})`,
  );
  console.log(
    `  scalar ${kib(scalar.size).padStart(10)}  ${relative(root, outputs.scalar)}  (${scalar.functions} functions, no SIMD instruction; features: ${featureList(scalar)})`,
  );
  return outputs;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  step('Building the vision wasm (Rust 1.63, wasm32-unknown-unknown)');
  try {
    buildWasm({ force: process.argv.includes('--force') });
  } catch (error) {
    console.error(`\n✖ ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
