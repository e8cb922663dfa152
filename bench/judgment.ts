/**
 * `npm run bench:judgment`: the real vision pipeline (wasm-simd, wasm-scalar
 * and the JavaScript fallback) over the labelled footage of bench/footage,
 * a frame a second, and each judgment's accuracy beside its target. See
 * bench/README.md, "Judgment benchmark".
 */

import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { Analyser, type AnalyserOptions, type FrameAnalyser, type FrameResult, type VisionExports } from '../src/client/vision/analyser';
import { JsAnalyser } from '../src/client/vision/js-analyser';
import * as loadNode from '../src/client/vision/load-node';
import * as params from '../src/client/vision/params.generated';
import { CLIPS } from './footage/clips.ts';
import { fetchFootage } from './footage/fetch.ts';
import { FootageImages, FootageRenderer } from './footage/render.ts';
import { planClip, type Clip, type Plan } from './footage/script.ts';
import {
  RECALL_MIN_SIDE_PX,
  awaySpells,
  dozesCaught,
  falseAlerts,
  matchesFace,
  noticedInTime,
  type Alert,
  type AlertKind,
  type AwaySpell,
  type FoundFace,
} from './judgment-score.ts';
import { median } from './steps.ts';

const USAGE = `npm run bench:judgment -- [options]

  --only CLIP,...   only these clips (names as printed; default all)
  --json FILE       also write the figures and every alert to FILE
  --help            this text

Clips: ${CLIPS.map((clip) => clip.name).join(', ')}`;

const TARGETS = {
  recall: 0.95,
  falseAlertsPer10h: 1,
  awaySlackS: 5,
  detectionMs: 1,
};
const ALERT_KINDS: readonly AlertKind[] = ['nodding', 'noMotion', 'away', 'darkness'];

type Implementation = 'wasm-simd' | 'wasm-scalar' | 'js';

interface Options {
  only: string[] | null;
  json: string | null;
  help: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { only: null, json: null, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--json') options.json = value();
    else if (arg === '--only') {
      options.only = value().split(',').filter(Boolean);
      const unknown = options.only.filter((name) => !CLIPS.some((clip) => clip.name === name));
      if (unknown.length > 0) throw new Error(`No clip ${unknown.join(', ')}; clips: ${CLIPS.map((clip) => clip.name).join(', ')}`);
    } else throw new Error(`Unknown option ${arg}\n\n${USAGE}`);
  }
  return options;
}

/** A function exported by `module` under `name`, if it has one (the face detector's hooks are being added). */
function exportedFunction(module: object, name: string): ((...args: unknown[]) => unknown) | null {
  const found: unknown = new Map<string, unknown>(Object.entries(module)).get(name);
  if (typeof found !== 'function') return null;
  return (...args) => Reflect.apply(found, module, args);
}

/** The face model's bytes when load-node.ts can load them (`loadFaceModelBytes()`), else why not. */
async function faceModelBytes(): Promise<Uint8Array | string> {
  const load = exportedFunction(loadNode, 'loadFaceModelBytes');
  if (load === null) return 'src/client/vision/load-node.ts has no loadFaceModelBytes()';
  const bytes: unknown = await load();
  if (!(bytes instanceof Uint8Array)) return 'loadFaceModelBytes() did not give bytes';
  return bytes;
}

/** The away count (params.rs AWAY_COUNT_S) once the crate has one. */
function awayCountS(): number | null {
  const value: unknown = new Map<string, unknown>(Object.entries(params)).get('AWAY_COUNT_S');
  return typeof value === 'number' ? value : null;
}

/** The result's face: undefined when FrameResult has no `face` yet, null when none was found. */
function foundFace(result: FrameResult): FoundFace | null | undefined {
  if (!('face' in result)) return undefined;
  const face: unknown = result.face;
  if (face === null) return null;
  if (typeof face === 'object' && 'x' in face && 'y' in face && 'size' in face) {
    const { x, y, size } = face;
    if (typeof x === 'number' && typeof y === 'number' && typeof size === 'number') return { x, y, size };
  }
  throw new Error('FrameResult.face is neither null nor { x, y, size }');
}

function hasFaceDetector(result: FrameResult): boolean {
  return 'faceDetector' in result && result.faceDetector === true;
}

/** The alerts of one frame; `away` once the result's events have it. */
function alertsOf(result: FrameResult, second: number, into: Alert[]): boolean {
  const { events } = result;
  if (events.nodding) into.push({ second, kind: 'nodding' });
  if (events.noMotion) into.push({ second, kind: 'noMotion' });
  if (events.darkness) into.push({ second, kind: 'darkness' });
  if (!('away' in events)) return false;
  if (events.away === true) into.push({ second, kind: 'away' });
  return true;
}

interface Run {
  implementation: Implementation;
  alerts: Alert[];
  falseAlerts: Alert[];
  /** Labelled faces of at least 40 px in view, and how many were found; null until FrameResult has a face (and a detector). */
  recall: { found: number; labelled: number } | null;
  falseFaces: { found: number; frames: number } | null;
  away: AwaySpell[] | null;
  dozes: { start: number; end: number; caughtAt: number | null }[];
  processMicros: number[];
}

interface ClipReport {
  clip: Clip;
  seconds: number;
  workingSeconds: number;
  runs: Run[];
}

interface Engine {
  implementation: Implementation;
  make(options: AnalyserOptions): FrameAnalyser;
}

function fresh(implementation: Implementation): Run {
  return { implementation, alerts: [], falseAlerts: [], recall: null, falseFaces: null, away: null, dozes: [], processMicros: [] };
}

function runClip(
  clip: Clip,
  plan: Plan,
  engines: readonly Engine[],
  images: FootageImages,
  faceModel: Uint8Array | null,
  frame: Uint8ClampedArray,
): ClipReport {
  const renderer = new FootageRenderer(clip, images);
  const options: AnalyserOptions = { width: clip.width, height: clip.height, ios: clip.ios, sleeper: false };
  const analysers = engines.map((engine) => engine.make(options));
  const runs = engines.map((engine) => fresh(engine.implementation));
  const awayCount = awayCountS();
  let awayMeasured = true;
  try {
    if (faceModel !== null) {
      for (const analyser of analysers) {
        const load = exportedFunction(analyser, 'loadFaceModel');
        if (load === null) throw new Error('load-node.ts loads a face model but the analyser has no loadFaceModel()');
        load(faceModel);
      }
    }
    const timed = clip.width === 160 && clip.height === 120;
    for (const [second, pose] of plan.poses.entries()) {
      renderer.render(second, pose, frame);
      const label = plan.labels[second];
      for (const [index, analyser] of analysers.entries()) {
        const run = runs[index];
        analyser.frameBuffer().set(frame);
        const start = performance.now();
        const result = analyser.process(second * 1000);
        if (timed) run.processMicros.push((performance.now() - start) * 1000);
        awayMeasured = alertsOf(result, second, run.alerts) && awayMeasured;
        const face = foundFace(result);
        if (face === undefined || !hasFaceDetector(result)) continue;
        run.recall ??= { found: 0, labelled: 0 };
        run.falseFaces ??= { found: 0, frames: 0 };
        if (label.face === null) {
          run.falseFaces.frames++;
          if (face !== null) run.falseFaces.found++;
        } else if (label.inView && label.face.side >= RECALL_MIN_SIDE_PX) {
          run.recall.labelled++;
          if (face !== null && matchesFace(label.face, face, clip.width, clip.height)) run.recall.found++;
        }
      }
    }
  } finally {
    for (const analyser of analysers) analyser.dispose();
  }
  const activities = plan.labels.map((label) => label.activity);
  for (const run of runs) {
    run.falseAlerts = falseAlerts(activities, run.alerts);
    run.away = awayMeasured && awayCount !== null ? awaySpells(activities, run.alerts, awayCount) : null;
    run.dozes = dozesCaught(plan.dozes, run.alerts).map(({ episode, caughtAt }) => ({ ...episode, caughtAt }));
  }
  return { clip, seconds: plan.poses.length, workingSeconds: activities.filter((activity) => activity === 'working').length, runs };
}

const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`);
const verdict = (holds: boolean) => (holds ? 'PASS' : 'MISS');
const minutes = (seconds: number) => (seconds / 60).toFixed(1);

function clipLine(report: ClipReport): string {
  const run = report.runs[0];
  const counts = ALERT_KINDS.map((kind) => {
    const all = run.alerts.filter((alert) => alert.kind === kind).length;
    const wrong = run.falseAlerts.filter((alert) => alert.kind === kind).length;
    return `${all}/${wrong}`.padStart(7);
  });
  const recall = run.recall === null ? 'n/m' : percent(run.recall.found, run.recall.labelled);
  const falseFaces = run.falseFaces === null ? 'n/m' : percent(run.falseFaces.found, run.falseFaces.frames);
  const away = run.away === null ? 'n/m' : run.away.map((spell) => (spell.latencyS === null ? 'never' : `${spell.latencyS}s`)).join(' ') || '—';
  const dozes = run.dozes.length === 0 ? '—' : `${run.dozes.filter((doze) => doze.caughtAt !== null).length}/${run.dozes.length}`;
  return [
    report.clip.name.padEnd(20),
    `${report.clip.width}x${report.clip.height}`.padEnd(8),
    minutes(report.seconds).padStart(6),
    minutes(report.workingSeconds).padStart(6),
    ...counts,
    recall.padStart(8),
    falseFaces.padStart(8),
    away.padStart(12),
    dozes.padStart(6),
  ].join(' ');
}

interface Totals {
  implementation: Implementation;
  workingSeconds: number;
  falseAlerts: { clip: string; second: number; kind: AlertKind }[];
  recall: { found: number; labelled: number } | null;
  falseFaces: { found: number; frames: number } | null;
  away: { clip: string; spell: AwaySpell }[] | null;
  dozes: { clip: string; start: number; end: number; caughtAt: number | null }[];
  processMedianMicros: number | null;
}

function totalsOf(reports: readonly ClipReport[], index: number): Totals {
  const runs = reports.map((report) => ({ report, run: report.runs[index] }));
  const sum = (pick: (run: Run) => { found: number; labelled?: number; frames?: number } | null) =>
    runs.every(({ run }) => pick(run) === null) ? null : runs.reduce((total, { run }) => total + (pick(run)?.found ?? 0), 0);
  const recallFound = sum((run) => run.recall);
  const falseFound = sum((run) => run.falseFaces);
  const micros = runs.flatMap(({ run }) => run.processMicros);
  return {
    implementation: reports[0].runs[index].implementation,
    workingSeconds: reports.reduce((total, report) => total + report.workingSeconds, 0),
    falseAlerts: runs.flatMap(({ report, run }) => run.falseAlerts.map((alert) => ({ clip: report.clip.name, ...alert }))),
    recall: recallFound === null ? null : { found: recallFound, labelled: runs.reduce((total, { run }) => total + (run.recall?.labelled ?? 0), 0) },
    falseFaces: falseFound === null ? null : { found: falseFound, frames: runs.reduce((total, { run }) => total + (run.falseFaces?.frames ?? 0), 0) },
    away: runs.some(({ run }) => run.away === null)
      ? null
      : runs.flatMap(({ report, run }) => (run.away ?? []).map((spell) => ({ clip: report.clip.name, spell }))),
    dozes: runs.flatMap(({ report, run }) => run.dozes.map((doze) => ({ clip: report.clip.name, ...doze }))),
    processMedianMicros: micros.length === 0 ? null : median(micros),
  };
}

function targetLines(totals: Totals, faceModelNote: string | null): string[] {
  const lines: string[] = [];
  const notMeasured = (what: string, why: string) => lines.push(`  ${what.padEnd(44)} not measured: ${why}`);
  const faceWhy = faceModelNote ?? 'no result said faceDetector: true';
  if (totals.recall === null || totals.falseFaces === null) {
    notMeasured(`face recall (faces of ${RECALL_MIN_SIDE_PX} px and more)`, faceWhy);
    notMeasured('false faces on face-free frames', faceWhy);
  } else {
    const recall = totals.recall.labelled === 0 ? 0 : totals.recall.found / totals.recall.labelled;
    lines.push(
      `  ${`face recall (faces of ${RECALL_MIN_SIDE_PX} px and more)`.padEnd(44)} ${percent(totals.recall.found, totals.recall.labelled).padStart(8)} of ${totals.recall.labelled} frames   target ≥ ${TARGETS.recall * 100} %   ${verdict(recall >= TARGETS.recall)}`,
    );
    lines.push(
      `  ${'false faces on face-free frames'.padEnd(44)} ${percent(totals.falseFaces.found, totals.falseFaces.frames).padStart(8)} of ${totals.falseFaces.frames} frames`,
    );
  }
  const count = awayCountS();
  if (totals.away === null || count === null) {
    notMeasured('away noticed within the away count + 5 s', count === null ? 'params.generated.ts has no AWAY_COUNT_S' : 'FrameResult.events has no away');
  } else {
    const inTime = totals.away.filter(({ spell }) => noticedInTime(spell, count, TARGETS.awaySlackS)).length;
    if (totals.away.length === 0) notMeasured(`away noticed within ${count} + ${TARGETS.awaySlackS} s`, `no spell of ${count} s or more in these clips`);
    else
      lines.push(
        `  ${`away noticed within ${count} + ${TARGETS.awaySlackS} s`.padEnd(44)} ${`${inTime}/${totals.away.length}`.padStart(8)} spells          target every time   ${verdict(inTime === totals.away.length)}`,
      );
  }
  const per10h = totals.workingSeconds === 0 ? 0 : (totals.falseAlerts.length * 36000) / totals.workingSeconds;
  const byKind = ALERT_KINDS.map((kind) => `${kind} ${totals.falseAlerts.filter((alert) => alert.kind === kind).length}`).join(', ');
  lines.push(
    `  ${'false alerts per 10 h of a person working'.padEnd(44)} ${per10h.toFixed(1).padStart(8)} (${totals.falseAlerts.length} in ${(totals.workingSeconds / 3600).toFixed(2)} h: ${byKind})   target ≤ ${TARGETS.falseAlertsPer10h}   ${verdict(per10h <= TARGETS.falseAlertsPer10h)}`,
  );
  const caught = totals.dozes.filter((doze) => doze.caughtAt !== null).length;
  lines.push(
    `  ${'doze episodes caught (nodding)'.padEnd(44)} ${`${caught}/${totals.dozes.length}`.padStart(8)}                 target all   ${verdict(caught === totals.dozes.length)}`,
  );
  return lines;
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const clips = options.only === null ? CLIPS : CLIPS.filter((clip) => options.only?.includes(clip.name));
  const cpu = cpus();
  console.log(
    `Warden judgment benchmark — ${new Date().toISOString().slice(0, 10)}, commit ${commit()}, Node ${process.version}, ${cpu[0]?.model ?? 'unknown CPU'} x${cpu.length}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const images = new FootageImages(fetchFootage());
  const wasm: Record<'simd' | 'scalar', VisionExports> = { simd: await loadNode.loadVisionWasm('simd'), scalar: await loadNode.loadVisionWasm('scalar') };
  const engines: Engine[] = [
    { implementation: 'wasm-simd', make: (analyserOptions) => new Analyser(wasm.simd, analyserOptions) },
    { implementation: 'wasm-scalar', make: (analyserOptions) => new Analyser(wasm.scalar, analyserOptions) },
    { implementation: 'js', make: (analyserOptions) => new JsAnalyser(analyserOptions) },
  ];
  const model = await faceModelBytes();
  const faceModel = typeof model === 'string' ? null : model;
  console.log(`face model: ${faceModel === null ? `not loaded (${model})` : `${faceModel.length} bytes`}`);

  const started = performance.now();
  const reports: ClipReport[] = [];
  console.log(
    `\n${'clip'.padEnd(20)} ${'size'.padEnd(8)} ${'min'.padStart(6)} ${'work'.padStart(6)} ${ALERT_KINDS.map((kind) => kind.slice(0, 7).padStart(7)).join(' ')} ${'recall'.padStart(8)} ${'falsefc'.padStart(8)} ${'away'.padStart(12)} ${'dozes'.padStart(6)}`,
  );
  let buffer = new Uint8ClampedArray(0);
  for (const clip of clips) {
    if (buffer.length !== clip.width * clip.height * 4) buffer = new Uint8ClampedArray(clip.width * clip.height * 4);
    const report = runClip(clip, planClip(clip), engines, images, faceModel, buffer);
    reports.push(report);
    console.log(clipLine(report));
  }
  console.log('(wasm-simd; alerts as all/false per kind; n/m: not measured; away: latency of each spell of the away count or more)');

  const seconds = reports.reduce((total, report) => total + report.seconds, 0);
  const totals = engines.map((_, index) => totalsOf(reports, index));
  console.log(
    `\n${reports.length} clips, ${(seconds / 3600).toFixed(2)} h of footage, ${(totals[0].workingSeconds / 3600).toFixed(2)} h of a person working; ran in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const total of totals) {
    console.log(`\n${total.implementation}:`);
    for (const line of targetLines(total, faceModel === null && typeof model === 'string' ? model : null)) console.log(line);
  }
  const agree = totals.every((total) => JSON.stringify(total.falseAlerts) === JSON.stringify(totals[0].falseAlerts));
  console.log(`\nThe three implementations ${agree ? 'raise the same false alerts' : 'DIFFER in their false alerts (see above)'}.`);

  const timing = totals.map((total) => `${total.implementation} ${total.processMedianMicros === null ? '—' : `${total.processMedianMicros.toFixed(1)} µs`}`);
  console.log(`process() per frame at 160x120, median: ${timing.join(', ')}`);
  const simd = totals[0];
  if (faceModel === null || simd.recall === null) {
    console.log(`  face detection time                          not measured: ${faceModel === null ? model : 'FrameResult has no face'}`);
  } else {
    const ms = (simd.processMedianMicros ?? 0) / 1000;
    console.log(
      `  face detection time (whole process(), simd)  ${ms.toFixed(3)} ms   target ≤ ${TARGETS.detectionMs} ms   ${verdict(ms <= TARGETS.detectionMs)}`,
    );
  }

  console.log('\nFalse alerts (wasm-simd): clip, second, kind');
  for (const alert of simd.falseAlerts) console.log(`  ${alert.clip.padEnd(20)} ${String(alert.second).padStart(5)} s  ${alert.kind}`);
  const missed = simd.dozes.filter((doze) => doze.caughtAt === null);
  if (missed.length > 0) console.log(`Dozes missed (wasm-simd): ${missed.map((doze) => `${doze.clip} ${doze.start}-${doze.end} s`).join(', ')}`);

  if (options.json !== null) {
    const clipsJson = reports.map((report) => ({
      name: report.clip.name,
      size: `${report.clip.width}x${report.clip.height}`,
      seconds: report.seconds,
      workingSeconds: report.workingSeconds,
      runs: report.runs,
    }));
    await mkdir(dirname(options.json), { recursive: true });
    await writeFile(options.json, `${JSON.stringify({ date: new Date().toISOString(), commit: commit(), totals, clips: clipsJson }, null, 1)}\n`);
    console.log(`\nWrote ${options.json}`);
  }
}

main().catch((error: unknown) => {
  console.error(`bench:judgment failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
