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
import { CHECK_IN_WINDOW_MS } from '../src/shared/constants';
import { CheckIn } from '../src/client/features/jail/check-in';
import { Analyser, type AnalyserOptions, type FrameAnalyser, type FrameResult } from '../src/client/vision/analyser';
import { JsAnalyser } from '../src/client/vision/js-analyser';
import { loadFaceModelBytes, loadVisionWasm } from '../src/client/vision/load-node';
import { AWAY_COUNT_S } from '../src/client/vision/params.generated';
import type { SampleClock } from '../src/client/vision/sample-timer';
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
} from './judgment-score.ts';
import { median } from './steps.ts';
import type { MotionEventName } from '../src/shared/jail-vocabulary.ts';

const USAGE = `npm run bench:judgment -- [options]

  --only CLIP,...   only these clips (names as printed; default all)
  --json FILE       also write the figures and every alert to FILE
  --help            this text

Clips: ${CLIPS.map((clip) => clip.name).join(', ')}`;

const TARGETS = {
  recall: 0.95,
  falseAlertsPer10h: 1,
  awaySlackS: 5,
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

/**
 * The jail's clock as the check-in sees it, moved by the benchmark a frame
 * at a time: the product's `CheckIn` (src/client/features/jail) decides
 * what is asked and what is sent, on the footage's own time.
 */
class FootageClock implements SampleClock {
  private time = 0;
  private readonly timers = new Map<number, { due: number; callback: () => unknown }>();
  private nextId = 1;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => unknown, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { due: this.time + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.timers.delete(handle);
  }

  /** Moves to `time`, firing what fell due on the way, in order. */
  advanceTo(time: number): void {
    for (;;) {
      const due = [...this.timers.entries()].filter(([, timer]) => timer.due <= time).sort((a, b) => a[1].due - b[1].due)[0];
      if (due === undefined) break;
      this.timers.delete(due[0]);
      this.time = due[1].due;
      due[1].callback();
    }
    this.time = time;
  }
}

/** The relay events that accuse the guest, as the benchmark names them. */
const ALERT_OF_EVENT: Partial<Record<MotionEventName, AlertKind>> = {
  no_motion_event_from_guest: 'noMotion',
  nodding_motion_event_from_guest: 'nodding',
  darkness_event_from_guest: 'darkness',
  away_event_from_guest: 'away',
};

/** The analyser's own alert events of a frame (before the check-in). */
function alertsOf(result: FrameResult, second: number, into: Alert[]): void {
  const { events } = result;
  if (events.nodding) into.push({ second, kind: 'nodding' });
  if (events.noMotion) into.push({ second, kind: 'noMotion' });
  if (events.darkness) into.push({ second, kind: 'darkness' });
  if (events.away) into.push({ second, kind: 'away' });
}

interface Run {
  implementation: Implementation;
  /** The analyser's alert events: what the Warden noticed. */
  seen: Alert[];
  /** What the check-in sent to the server: the alerts written. */
  alerts: Alert[];
  falseAlerts: Alert[];
  /** The check-in's questions to a person who was working (each one answered or not). */
  questionsToWorking: number;
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
  /** An analyser for the clip; the wasm ones with the face model loaded. */
  make(options: AnalyserOptions): FrameAnalyser;
}

function fresh(implementation: Implementation): Run {
  return {
    implementation,
    seen: [],
    alerts: [],
    falseAlerts: [],
    questionsToWorking: 0,
    recall: null,
    falseFaces: null,
    away: null,
    dozes: [],
    processMicros: [],
  };
}

function runClip(clip: Clip, plan: Plan, engines: readonly Engine[], images: FootageImages, frame: Uint8ClampedArray): ClipReport {
  const renderer = new FootageRenderer(clip, images);
  const options: AnalyserOptions = { width: clip.width, height: clip.height, ios: clip.ios, sleeper: false };
  const analysers = engines.map((engine) => engine.make(options));
  const runs = engines.map((engine) => fresh(engine.implementation));
  const clocks = engines.map(() => new FootageClock());
  const checkIns = runs.map(
    (run, index) =>
      new CheckIn({
        clock: clocks[index],
        send: (report, timeMs) => {
          const kind = ALERT_OF_EVENT[report.event];
          if (kind !== undefined) run.alerts.push({ second: Math.floor(timeMs / 1000), kind });
        },
        onAsk: () => {
          if (plan.labels[Math.floor(clocks[index].now() / 1000)]?.activity === 'working') run.questionsToWorking++;
        },
        onSettled: () => undefined,
        // The clips have no leave or break.
        inSeat: () => true,
      }),
  );
  try {
    const timed = clip.width === 160 && clip.height === 120;
    for (const [second, pose] of plan.poses.entries()) {
      renderer.render(second, pose, frame);
      const label = plan.labels[second];
      const timeMs = second * 1000;
      for (const [index, analyser] of analysers.entries()) {
        const run = runs[index];
        analyser.frameBuffer().set(frame);
        const start = performance.now();
        const result = analyser.process(timeMs);
        if (timed) run.processMicros.push((performance.now() - start) * 1000);
        alertsOf(result, second, run.seen);
        clocks[index].advanceTo(timeMs);
        checkIns[index].frame(result, timeMs);
        if (!result.faceDetector) continue;
        run.recall ??= { found: 0, labelled: 0 };
        run.falseFaces ??= { found: 0, frames: 0 };
        if (label.face === null) {
          run.falseFaces.frames++;
          if (result.face !== null) run.falseFaces.found++;
        } else if (label.inView && label.face.side >= RECALL_MIN_SIDE_PX) {
          run.recall.labelled++;
          if (result.face !== null && matchesFace(label.face, result.face, clip.width, clip.height)) run.recall.found++;
        }
      }
    }
    // A question still open at the end is answered by nobody.
    for (const clock of clocks) clock.advanceTo(plan.poses.length * 1000 + CHECK_IN_WINDOW_MS);
  } finally {
    for (const analyser of analysers) analyser.dispose();
    for (const checkIn of checkIns) checkIn.dispose();
  }
  const activities = plan.labels.map((label) => label.activity);
  for (const run of runs) {
    run.falseAlerts = falseAlerts(activities, run.alerts);
    run.away = run.recall === null ? null : awaySpells(activities, run.seen, AWAY_COUNT_S);
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
  /** Every alert event the analyser raised, before the check-in. */
  seen: { clip: string; second: number; kind: AlertKind }[];
  questionsToWorking: number;
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
    seen: runs.flatMap(({ report, run }) => run.seen.map((alert) => ({ clip: report.clip.name, ...alert }))),
    questionsToWorking: runs.reduce((total, { run }) => total + run.questionsToWorking, 0),
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

function targetLines(totals: Totals): string[] {
  const lines: string[] = [];
  const notMeasured = (what: string, why: string) => lines.push(`  ${what.padEnd(44)} not measured: ${why}`);
  const faceWhy = 'no face model in use';
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
  const count = AWAY_COUNT_S;
  if (totals.away === null) {
    notMeasured('away noticed within the away count + 5 s', faceWhy);
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
  const questions = totals.workingSeconds === 0 ? 0 : (totals.questionsToWorking * 36000) / totals.workingSeconds;
  lines.push(
    `  ${'"Are you still with me?" to a person working'.padEnd(44)} ${questions.toFixed(1).padStart(8)} per 10 h (${totals.questionsToWorking}; answered by the face or a tap, never written)`,
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
  const faceModel = await loadFaceModelBytes();
  const withFaceModel = (analyser: FrameAnalyser & { loadFaceModel(bytes: Uint8Array): boolean }): FrameAnalyser => {
    if (!analyser.loadFaceModel(faceModel)) throw new Error('the face model did not load');
    return analyser;
  };
  const [simd, scalar] = [await loadVisionWasm('simd'), await loadVisionWasm('scalar')];
  const engines: Engine[] = [
    { implementation: 'wasm-simd', make: (analyserOptions) => withFaceModel(new Analyser(simd, analyserOptions)) },
    { implementation: 'wasm-scalar', make: (analyserOptions) => withFaceModel(new Analyser(scalar, analyserOptions)) },
    { implementation: 'js', make: (analyserOptions) => withFaceModel(new JsAnalyser(analyserOptions)) },
  ];
  console.log(`face model: ${faceModel.length} bytes, loaded by every pipeline`);

  const started = performance.now();
  const reports: ClipReport[] = [];
  console.log(
    `\n${'clip'.padEnd(20)} ${'size'.padEnd(8)} ${'min'.padStart(6)} ${'work'.padStart(6)} ${ALERT_KINDS.map((kind) => kind.slice(0, 7).padStart(7)).join(' ')} ${'recall'.padStart(8)} ${'falsefc'.padStart(8)} ${'away'.padStart(12)} ${'dozes'.padStart(6)}`,
  );
  let buffer = new Uint8ClampedArray(0);
  for (const clip of clips) {
    if (buffer.length !== clip.width * clip.height * 4) buffer = new Uint8ClampedArray(clip.width * clip.height * 4);
    const report = runClip(clip, planClip(clip), engines, images, buffer);
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
    for (const line of targetLines(total)) console.log(line);
  }
  // Every pipeline runs the same rules on the same face: they must agree.
  const [simdTotals, ...others] = totals;
  const judgedBy = (total: Totals) => JSON.stringify([total.seen, total.falseAlerts, total.recall, total.falseFaces]);
  const agree = others.every((total) => judgedBy(total) === judgedBy(simdTotals));
  console.log(`\nThe pipelines ${agree ? 'see and write the same alerts and find the same faces' : 'DIFFER in what they see, write or find (see above)'}.`);

  const timing = totals.map((total) => `${total.implementation} ${total.processMedianMicros === null ? '—' : `${total.processMedianMicros.toFixed(1)} µs`}`);
  console.log(`process() per frame at 160x120, median: ${timing.join(', ')} (the detector's own time against its target: npm run bench:face)`);

  console.log('\nFalse alerts (wasm-simd): clip, second, kind');
  for (const alert of simdTotals.falseAlerts) console.log(`  ${alert.clip.padEnd(20)} ${String(alert.second).padStart(5)} s  ${alert.kind}`);
  const missed = simdTotals.dozes.filter((doze) => doze.caughtAt === null);
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
