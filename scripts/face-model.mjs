// Writes crates/vision/pkg/face-model.bin, the face detector's model, from
// OpenCV's LBP frontal-face cascade in Debian's opencv-data package, and
// LICENSE-face-model.txt beside it (the cascade's licence, which its binary
// form must carry). The binary format is documented at the top of
// crates/vision/src/face/model.rs, which parses it. Run by
// scripts/build-wasm.mjs (so by `npm start` and `npm test`) or by hand; it
// rewrites the files only when the XML or this script is newer.
//
// Usage: node scripts/face-model.mjs [--force]

import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FACE_CASCADE_XML, ROOT } from './ensure.mjs';

/** The cascade (docs/vision.md, "Face", says why this one). */
const FACE_MODEL_XML = FACE_CASCADE_XML;
/**
 * OpenCV's data files carry the Intel licence (Debian's copyright file:
 * "Files: data/*"), but the LBP cascade has none in its own header; the Haar
 * cascade of the same package has it word for word.
 */
const LICENCE_SOURCE = '/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml';
const SCRIPT = join('scripts', 'face-model.mjs');

const MAGIC = 'WFCM';
const VERSION = 1;

/** Where the model and its licence land, beside the wasm modules. */
export function faceModelOutputs(root = ROOT) {
  const pkg = join(root, 'crates', 'vision', 'pkg');
  return { model: join(pkg, 'face-model.bin'), licence: join(pkg, 'LICENSE-face-model.txt') };
}

/** Every file whose change calls for a new model. */
export function faceModelInputs(root = ROOT) {
  return [FACE_MODEL_XML, LICENCE_SOURCE, join(root, SCRIPT)];
}

function text(xml, tag) {
  const match = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  if (match === null) throw new Error(`${FACE_MODEL_XML}: no <${tag}>`);
  return match[1].trim();
}

function numbers(value) {
  return value.trim().split(/\s+/).map(Number);
}

/** The cascade's stages, weak classifiers and features, checked to be the shape the crate evaluates. */
export function parseCascade(xml) {
  const body = xml.replace(/<!--[\s\S]*?-->/g, '');
  if (text(body, 'stageType') !== 'BOOST' || text(body, 'featureType') !== 'LBP') throw new Error('not a boosted LBP cascade');
  if (text(body, 'maxDepth') !== '1') throw new Error('only stumps (maxDepth 1) are supported');
  const width = Number(text(body, 'width'));
  const height = Number(text(body, 'height'));
  const stagesXml = /<stages>([\s\S]*)<\/stages>/.exec(body)?.[1];
  const featuresXml = /<features>([\s\S]*)<\/features>/.exec(body)?.[1];
  if (stagesXml === undefined || featuresXml === undefined) throw new Error('no <stages> or <features>');
  const features = [...featuresXml.matchAll(/<rect>([^<]*)<\/rect>/g)].map((match) => numbers(match[1]));
  const stages = [];
  const stagePattern = /<maxWeakCount>(\d+)<\/maxWeakCount>\s*<stageThreshold>([^<]*)<\/stageThreshold>\s*<weakClassifiers>([\s\S]*?)<\/weakClassifiers>/g;
  for (const [, count, threshold, weakXml] of stagesXml.matchAll(stagePattern)) {
    const weak = [...weakXml.matchAll(/<internalNodes>([^<]*)<\/internalNodes>\s*<leafValues>([^<]*)<\/leafValues>/g)].map((match) => {
      const nodes = numbers(match[1]);
      const leaves = numbers(match[2]);
      if (nodes.length !== 11 || nodes[0] !== 0 || nodes[1] !== -1 || leaves.length !== 2) throw new Error(`not a categorical stump: ${match[1]}`);
      return { feature: nodes[2], subset: nodes.slice(3), leaves };
    });
    if (weak.length !== Number(count)) throw new Error(`a stage says ${count} weak classifiers but has ${weak.length}`);
    stages.push({ threshold: Number(threshold), weak });
  }
  if (stages.length !== Number(text(body, 'stageNum'))) throw new Error(`stageNum says ${text(body, 'stageNum')}, found ${stages.length}`);
  for (const rect of features) {
    const [x, y, w, h] = rect;
    if (rect.length !== 4 || w < 1 || h < 1 || x < 0 || y < 0 || x + 3 * w > width || y + 3 * h > height) throw new Error(`feature ${rect} leaves the window`);
  }
  for (const { weak } of stages) {
    for (const { feature } of weak) if (!(feature >= 0 && feature < features.length)) throw new Error(`feature index ${feature} out of range`);
  }
  return { width, height, stages, features };
}

/** The binary model (format: crates/vision/src/face/model.rs). */
export function encodeCascade({ width, height, stages, features }) {
  const weakCount = stages.reduce((sum, stage) => sum + stage.weak.length, 0);
  const size = 12 + features.length * 4 + stages.length * 6 + weakCount * 42;
  const view = new DataView(new ArrayBuffer(size));
  let at = 0;
  const u8 = (value) => view.setUint8(at++, value);
  const u16 = (value) => {
    view.setUint16(at, value, true);
    at += 2;
  };
  const f32 = (value) => {
    view.setFloat32(at, value, true);
    at += 4;
  };
  for (const char of MAGIC) u8(char.charCodeAt(0));
  u8(VERSION);
  u8(width);
  u8(height);
  u8(0);
  u16(stages.length);
  u16(features.length);
  for (const rect of features) for (const value of rect) u8(value);
  for (const { threshold, weak } of stages) {
    u16(weak.length);
    f32(threshold);
  }
  for (const { weak } of stages) {
    for (const { feature, subset, leaves } of weak) {
      u16(feature);
      // 256 bits, bit c for LBP code c: the words in little-endian order.
      for (const word of subset) {
        view.setInt32(at, word, true);
        at += 4;
      }
      f32(leaves[0]);
      f32(leaves[1]);
    }
  }
  if (at !== size) throw new Error(`encoded ${at} bytes of ${size}`);
  return new Uint8Array(view.buffer);
}

/** The XML's leading comment, verbatim. */
function headerComment(xml) {
  return /^\s*(?:<\?xml[^>]*\?>)?\s*<!--([\s\S]*?)-->/.exec(xml)?.[1] ?? '';
}

/** The licence part of a Haar cascade's header: the rest describes that cascade. */
function intelLicence(xml) {
  const header = headerComment(xml);
  const start = header.indexOf('////');
  if (start < 0 || !header.includes('Intel License Agreement')) throw new Error(`${LICENCE_SOURCE}: no Intel licence in its header`);
  return header.slice(start).trimEnd();
}

function licenceText(xml) {
  const own = headerComment(xml);
  const lines = [
    `Warden's face model (face-model.bin) is converted by scripts/face-model.mjs from`,
    `${FACE_MODEL_XML} (Debian package opencv-data, OpenCV's data/ files).`,
    '',
    'The header of that file:',
    own.trimEnd(),
    '',
  ];
  if (!/license|licence/i.test(own)) {
    lines.push(
      `It carries no licence text; OpenCV's data files are under the Intel licence below, as`,
      `Debian's copyright file for the package says ("Files: data/*"). Copied from the header of`,
      `${LICENCE_SOURCE}:`,
      intelLicence(readFileSync(LICENCE_SOURCE, 'utf8')),
      '',
    );
  }
  return lines.join('\n');
}

function upToDate(root) {
  const outputs = Object.values(faceModelOutputs(root));
  if (!outputs.every((path) => existsSync(path))) return false;
  const oldest = Math.min(...outputs.map((path) => statSync(path).mtimeMs));
  return faceModelInputs(root).every((path) => statSync(path).mtimeMs < oldest);
}

/**
 * Writes the model and its licence unless they are up to date; says whether
 * it wrote them. Throws with the fix when opencv-data is not installed.
 */
export function writeFaceModel({ root = ROOT, force = false } = {}) {
  if (!existsSync(FACE_MODEL_XML)) {
    throw new Error(`${FACE_MODEL_XML} is missing: install Debian's opencv-data (sudo apt-get update && sudo apt-get install opencv-data)`);
  }
  if (!force && upToDate(root)) return false;
  const xml = readFileSync(FACE_MODEL_XML, 'utf8');
  const outputs = faceModelOutputs(root);
  mkdirSync(join(root, 'crates', 'vision', 'pkg'), { recursive: true });
  writeFileSync(outputs.model, encodeCascade(parseCascade(xml)));
  writeFileSync(outputs.licence, licenceText(xml));
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const wrote = writeFaceModel({ force: process.argv.includes('--force') });
    const { model } = faceModelOutputs();
    console.log(`  ${relative(ROOT, model)}: ${statSync(model).size} bytes${wrote ? '' : ' (up to date)'}`);
  } catch (error) {
    console.error(`\n✖ ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
