//! Measurements of the detector on real photos (docs/vision.md, "Face"):
//! recall on composites, false faces on face-free footage, and the share of
//! windows each stage keeps. Ignored by default: they need ffmpeg and the
//! photos of Debian's opencv-doc and the other footage that
//! `bench/footage/fetch.ts` fetches (run `npm run bench:face` once). Run with
//! `cargo test --release measure -- --ignored --nocapture`.

use super::tests::real_model;
use super::*;
use crate::kernels::SCALAR;
use crate::params::luma;
use std::process::Command;

/// Where `bench/footage/fetch.ts` keeps the footage (`FOOTAGE` overrides).
fn footage_dir() -> String {
    std::env::var("FOOTAGE")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/.cache/footage").to_string())
}

/// OpenCV's documentation photos (`FACE_PHOTOS` overrides).
fn photo_dir() -> String {
    std::env::var("FACE_PHOTOS").unwrap_or_else(|_| {
        format!("{}/debian-opencv-doc-4.6.0+dfsg-12/usr/share/doc/opencv-doc/opencv4/html", footage_dir())
    })
}

/// ffmpeg's frames of `path` as luma, `filter` applied, `width x height`.
fn luma_frames(path: &str, filter: &str, width: usize, height: usize, limit: usize) -> Vec<Vec<u8>> {
    let output = Command::new("ffmpeg")
        .args(["-loglevel", "error", "-i", path, "-vf", filter, "-frames:v", &limit.to_string()])
        .args(["-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        .output()
        .expect("ffmpeg runs");
    assert!(output.status.success(), "ffmpeg on {}: {}", path, String::from_utf8_lossy(&output.stderr));
    output
        .stdout
        .chunks_exact(width * height * 4)
        .map(|frame| frame.chunks_exact(4).map(|p| luma(p[0], p[1], p[2])).collect())
        .collect()
}

/// The photo scaled to cover `width x height` and cropped to it, as luma.
fn covered(name: &str, width: usize, height: usize) -> Vec<u8> {
    let filter = format!("scale={}:{}:force_original_aspect_ratio=increase,crop={}:{}", width, height, width, height);
    luma_frames(&format!("{}/{}", photo_dir(), name), &filter, width, height, 1).remove(0)
}

/// The stage at which the window at `at` of the integral image fails, or
/// the stage count when it passes: the scalar kernel, stage by stage.
fn stage_reached(model: &FaceModel, stumps: &StumpCorners, integral: &[u32], at: usize) -> usize {
    let mut weak = model.weak.iter().zip(stumps.per_stump());
    for (index, stage) in model.stages.iter().enumerate() {
        let mut sum = 0.0f32;
        for (classifier, corners) in weak.by_ref().take(stage.weak_count) {
            let point = |index: usize| integral[at + (corners[index / 4] + corners[4 + index % 4]) as usize / 4];
            let block = |block: usize| {
                let at = block / 3 * 4 + block % 3;
                point(at).wrapping_sub(point(at + 1)).wrapping_sub(point(at + 4)).wrapping_add(point(at + 5)) as i32
            };
            let centre = block(4);
            let code = crate::kernels::scalar::LBP_BLOCKS
                .iter()
                .fold(0u8, |code, &outer| code << 1 | (block(outer) >= centre) as u8);
            sum += crate::kernels::scalar::leaf(classifier, code);
        }
        if sum < stage.threshold {
            return index;
        }
    }
    model.stages.len()
}

#[test]
#[ignore]
fn measure_stage_survival() {
    let model = real_model();
    println!("stage sizes {:?}", model.stages.iter().map(|stage| stage.weak_count).collect::<Vec<_>>());
    for name in ["studentsSample_input.jpg", "face_swapped.jpg", "facereg.jpg"] {
        let grey = covered(name, 160, 120);
        let mut detector = FaceDetector::new(model.clone());
        detector.prepare(160, 120);
        let mut reached = vec![0usize; model.stages.len() + 1];
        // Lanes of four adjacent windows: stumps a vector evaluates.
        let (mut stumps_windows, mut stumps_groups) = (0usize, 0usize);
        let mut windows = 0;
        let stump_count =
            |stages: usize| model.stages[..stages.min(model.stages.len())].iter().map(|s| s.weak_count).sum::<usize>();
        for index in 0..detector.levels.len() {
            detector.build_level(&SCALAR, &grey, index);
            let level = &detector.levels[index];
            let stride = level.width + 1;
            let columns = (level.width - model.window_width) / level.step + 1;
            let mut level_windows = 0;
            for y in (0..=level.height - model.window_height).step_by(level.step) {
                let stages: Vec<usize> = (0..columns)
                    .map(|column| stage_reached(&model, &level.stumps, &detector.integral, y * stride + column))
                    .collect();
                for &stage in &stages {
                    reached[stage] += 1;
                    stumps_windows += stump_count(stage + 1);
                }
                for group in stages.chunks(4) {
                    stumps_groups += stump_count(group.iter().copied().max().unwrap_or(0) + 1);
                }
                level_windows += columns;
            }
            windows += level_windows;
            print!("L{} {}x{} s{} {}w; ", index, level.width, level.height, level.step, level_windows);
        }
        println!();
        let mut left = windows;
        let survival: Vec<String> = reached
            .iter()
            .map(|count| {
                let s = format!("{:.3}", left as f32 / windows as f32);
                left -= count;
                s
            })
            .collect();
        println!("{}: {} windows, reaching each stage {:?}", name, windows, survival);
        println!(
            "  stumps per window {:.2}, per group of four {:.2} (lane use {:.2})",
            stumps_windows as f32 / windows as f32,
            stumps_groups as f32 * 4.0 / windows as f32,
            stumps_windows as f32 / (stumps_groups as f32 * 4.0)
        );
    }
}

/// The photo at its own size, as luma.
fn photo(name: &str) -> (Vec<u8>, usize, usize) {
    let path = format!("{}/{}", photo_dir(), name);
    let probe = Command::new("ffprobe")
        .args(["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", &path])
        .output()
        .expect("ffprobe runs");
    let text = String::from_utf8_lossy(&probe.stdout).trim().to_string();
    let mut sides = text.split(',').map(|side| side.parse::<usize>().expect("a side"));
    let (width, height) = (sides.next().expect("width"), sides.next().expect("height"));
    (luma_frames(&path, "null", width, height, 1).remove(0), width, height)
}

/// Every level at every pixel: to find where the faces of a source photo
/// are. Each photo's faces are located twice, with pyramid scales 1.1 and
/// 1.15: the two crops of a face differ by a pixel or two, and both are
/// pasted (recall on one crop alone moved by one or two of 18).
const THOROUGH: [Tuning; 2] = [
    Tuning { min_size: 0.0, scale_factor: 1.1, dense_scale: 1.0, min_neighbours: 3, group_eps: 0.2 },
    Tuning { min_size: 0.0, scale_factor: 1.15, dense_scale: 1.0, min_neighbours: 3, group_eps: 0.2 },
];

/// The `count` best faces of a photo at its own size: the best one, then
/// the best once it is painted over, and so on.
fn locate(name: &str, count: usize) -> (Vec<u8>, usize, usize, Vec<Face>) {
    let (grey, width, height) = photo(name);
    let mut faces = Vec::new();
    for thorough in THOROUGH {
        faces.extend(locate_with(&grey, width, height, count, thorough, name));
    }
    (grey, width, height, faces)
}

fn locate_with(grey: &[u8], width: usize, height: usize, count: usize, tuning: Tuning, name: &str) -> Vec<Face> {
    let mut painted = grey.to_vec();
    let mut detector = FaceDetector::with_tuning(real_model(), tuning);
    let mut faces = Vec::new();
    for _ in 0..count {
        let face = detector.detect(&SCALAR, &painted, width, height).unwrap_or_else(|| panic!("a face in {}", name));
        let half = face.size / 2.0;
        for y in (face.y - half).max(0.0) as usize..((face.y + half) as usize).min(height) {
            for x in (face.x - half).max(0.0) as usize..((face.x + half) as usize).min(width) {
                painted[y * width + x] = 128;
            }
        }
        faces.push(face);
    }
    faces
}

/// Bilinear sample of `grey` at `(x, y)`, clamped to the image.
fn sample(grey: &[u8], width: usize, height: usize, x: f32, y: f32) -> f32 {
    let x = x.max(0.0).min(width as f32 - 1.0);
    let y = y.max(0.0).min(height as f32 - 1.0);
    let (x0, y0) = (x.floor() as usize, y.floor() as usize);
    let (x1, y1) = ((x0 + 1).min(width - 1), (y0 + 1).min(height - 1));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let at = |x: usize, y: usize| grey[y * width + x] as f32;
    (at(x0, y0) * (1.0 - fx) + at(x1, y0) * fx) * (1.0 - fy) + (at(x0, y1) * (1.0 - fx) + at(x1, y1) * fx) * fy
}

/// The context around a face pasted with it, as a share of its side.
const CONTEXT: f32 = 1.4;

/// `background` (160x120) with the source's face pasted so that its side is
/// `side` px and its centre at `(cx, cy)`: the square of `CONTEXT` times
/// the face around it, area-sampled (4x4 bilinear samples a pixel).
fn paste(background: &[u8], source: &(Vec<u8>, usize, usize), face: Face, side: f32, cx: f32, cy: f32) -> Vec<u8> {
    let (grey, width, height) = (&source.0, source.1, source.2);
    let mut out = background.to_vec();
    let patch = side * CONTEXT;
    let scale = face.size / side;
    let (left, top) = ((cx - patch / 2.0).round() as i32, (cy - patch / 2.0).round() as i32);
    for py in 0..patch.round() as i32 {
        for px in 0..patch.round() as i32 {
            let (x, y) = (left + px, top + py);
            if !(0..160).contains(&x) || !(0..120).contains(&y) {
                continue;
            }
            let mut sum = 0.0;
            for sy in 0..4 {
                for sx in 0..4 {
                    let u = face.x + ((px as f32 + (sx as f32 + 0.5) / 4.0) - patch / 2.0) * scale;
                    let v = face.y + ((py as f32 + (sy as f32 + 0.5) / 4.0) - patch / 2.0) * scale;
                    sum += sample(grey, width, height, u, v);
                }
            }
            out[y as usize * 160 + x as usize] = (sum / 16.0).round() as u8;
        }
    }
    out
}

/// The faces the composites are made of: (photo, how many faces it holds).
const SOURCES: [(&str, usize); 3] = [("facereg.jpg", 4), ("face_swapped.jpg", 1), ("julia_facedetect_sample.jpg", 1)];
const SIDES: [f32; 6] = [28.0, 32.0, 40.0, 48.0, 64.0, 80.0];

/// Three places a side: left and up, centre, right and down, inside the frame.
fn places(side: f32) -> [(f32, f32); 3] {
    let half = side * CONTEXT / 2.0;
    let clamp = |value: f32, low: f32, high: f32| value.max(low).min(high);
    [
        (clamp(40.0, half, 160.0 - half), clamp(45.0, half, 120.0 - half)),
        (80.0, 60.0),
        (clamp(120.0, half, 160.0 - half), clamp(75.0, half, 120.0 - half)),
    ]
}

/// Face-free frames: the lecture hall and people too small, then frames of
/// the walkway and the two cartoons at 160x120.
fn face_free() -> Vec<(String, Vec<u8>)> {
    let mut frames = Vec::new();
    let hall = "studentsSample_input.jpg";
    frames.push((hall.to_string(), covered(hall, 160, 120)));
    let data = format!("{}/debian-opencv-doc-4.6.0+dfsg-12/usr/share/doc/opencv-doc/examples/data", footage_dir());
    let videos = [
        ("vtest", format!("{}/vtest.avi", data), "fps=10"),
        ("megamind", format!("{}/Megamind.avi", data), "fps=4"),
        ("minions", format!("{}/npm-tracking-1.1.3/package/examples/assets/minions.mp4", footage_dir()), "fps=4"),
    ];
    for (name, path, rate) in videos {
        let filter = format!("{},scale=160:120:force_original_aspect_ratio=increase,crop=160:120", rate);
        for (index, frame) in luma_frames(&path, &filter, 160, 120, 1000).into_iter().enumerate() {
            frames.push((format!("{} #{}", name, index), frame));
        }
    }
    frames
}

/// Real photos with faces, brought to 160x120 as the camera would: paths
/// under the footage directory.
const WITH_FACES: [&str; 6] = [
    "debian-opencv-doc-4.6.0+dfsg-12/usr/share/doc/opencv-doc/opencv4/html/face_swapped.jpg",
    "debian-opencv-doc-4.6.0+dfsg-12/usr/share/doc/opencv-doc/opencv4/html/facereg.jpg",
    "debian-opencv-doc-4.6.0+dfsg-12/usr/share/doc/opencv-doc/opencv4/html/julia_facedetect_sample.jpg",
    "npm-_vladmandic_face-api-1.7.15/package/demo/sample3.jpg",
    "npm-_vladmandic_face-api-1.7.15/package/demo/sample6.jpg",
    "npm-tracking-1.1.3/package/examples/assets/faces.jpg",
];

/// The shipped tuning, and with `FACE_TUNINGS=all` those it was chosen
/// from (docs/vision.md, "Face").
fn tunings() -> Vec<(&'static str, Tuning)> {
    let mut list = vec![("shipped", Tuning::SHIPPED)];
    if std::env::var("FACE_TUNINGS").map_or(false, |value| value == "all") {
        let tuning = |min_size: f32, scale_factor: f32, dense_scale: f32, min_neighbours: usize| Tuning {
            min_size,
            scale_factor,
            dense_scale,
            min_neighbours,
            group_eps: 0.2,
        };
        list.extend([
            ("OpenCV's defaults from the 24 px window (before)", tuning(0.0, 1.1, 2.0, 3)),
            ("scale 1.1 from 28 px, every second pixel under scale 2", tuning(28.0, 1.1, 2.0, 3)),
            ("the same, min neighbours 2", tuning(28.0, 1.1, 2.0, 2)),
            ("the same, min neighbours 1", tuning(28.0, 1.1, 2.0, 1)),
            ("scale 1.1 from 28 px, every pixel", tuning(28.0, 1.1, 1.0, 3)),
            ("scale 1.1 from 28 px, every pixel from scale 1.4", tuning(28.0, 1.1, 1.4, 3)),
            ("scale 1.1 from 28 px, every pixel from scale 1.5", tuning(28.0, 1.1, 1.5, 3)),
            ("scale 1.1 from 30 px, every pixel from scale 1.5", tuning(30.0, 1.1, 1.5, 3)),
            ("scale 1.1 from 28 px, every pixel from scale 1.7", tuning(28.0, 1.1, 1.7, 3)),
            ("scale 1.1 from 28 px, every pixel from scale 1.8", tuning(28.0, 1.1, 1.8, 3)),
            ("scale 1.15 from 28 px, every pixel", tuning(28.0, 1.15, 1.0, 3)),
            ("scale 1.15 from 28 px, every pixel from scale 1.4", tuning(28.0, 1.15, 1.4, 3)),
            ("the same, min neighbours 2", tuning(28.0, 1.15, 1.4, 2)),
            ("scale 1.2 from 28 px, every pixel", tuning(28.0, 1.2, 1.0, 3)),
        ]);
    }
    list
}

#[test]
#[ignore]
fn measure_recall_and_false_faces() {
    let background = covered("studentsSample_input.jpg", 160, 120);
    let sources: Vec<_> = SOURCES.iter().map(|(name, count)| locate(name, *count)).collect();
    for ((name, _), (_, _, _, faces)) in SOURCES.iter().zip(&sources) {
        println!("{}: faces {:?}", name, faces);
    }
    let free = face_free();
    let model = real_model();
    for (label, tuning) in tunings() {
        let mut detector = FaceDetector::with_tuning(model.clone(), tuning);
        let mut row = Vec::new();
        let mut misses = Vec::new();
        let mut elsewhere = 0;
        let started = std::time::Instant::now();
        let mut searches = 0;
        for &side in &SIDES {
            let mut found = 0;
            let mut total = 0;
            for (source, (name, _)) in sources.iter().zip(&SOURCES) {
                let image = (source.0.clone(), source.1, source.2);
                for (index, face) in source.3.iter().enumerate() {
                    for (place, &(cx, cy)) in places(side).iter().enumerate() {
                        let composite = paste(&background, &image, *face, side, cx, cy);
                        let best = detector.detect(&SCALAR, &composite, 160, 120);
                        searches += 1;
                        total += 1;
                        match best {
                            Some(best) if (best.x - cx).abs() <= side / 3.0 && (best.y - cy).abs() <= side / 3.0 => {
                                found += 1
                            }
                            Some(_) => {
                                elsewhere += 1;
                                misses.push(format!(
                                    "{} {} face {} place {} (found elsewhere)",
                                    side, name, index, place
                                ));
                            }
                            None => misses.push(format!("{} {} face {} place {}", side, name, index, place)),
                        }
                    }
                }
            }
            row.push(format!("{}/{}", found, total));
        }
        let false_faces: Vec<&str> = free
            .iter()
            .filter(|(_, frame)| detector.detect(&SCALAR, frame, 160, 120).is_some())
            .map(|(name, _)| name.as_str())
            .collect();
        searches += free.len();
        let real: Vec<String> = WITH_FACES
            .iter()
            .map(|name| {
                let filter = "scale=160:120:force_original_aspect_ratio=increase,crop=160:120";
                let frame = luma_frames(&format!("{}/{}", footage_dir(), name), filter, 160, 120, 1).remove(0);
                let face = detector.detect(&SCALAR, &frame, 160, 120);
                let short = name.rsplit('/').next().unwrap_or(name);
                format!("{}: {:?}", short, face.map(|face| (face.x.round(), face.y.round(), face.size)))
            })
            .collect();
        println!("\n{}: {:?}", label, tuning);
        println!("  composites at {:?} px: {}", SIDES, row.join(" "));
        println!("  found elsewhere {}; misses: {:?}", elsewhere, misses);
        let sources = ["studentsSample", "vtest", "minions", "megamind"];
        let by_source: Vec<String> = sources
            .iter()
            .map(|source| {
                let frames = free.iter().filter(|(name, _)| name.starts_with(source)).count();
                let found = false_faces.iter().filter(|name| name.starts_with(source)).count();
                format!("{} {}/{}", source, found, frames)
            })
            .collect();
        println!("  faces on face-free frames: {}", by_source.join(", "));
        println!("  real photos at 160x120: {}", real.join("; "));
        let windows: usize = detector
            .levels
            .iter()
            .map(|level| {
                let (across, down) = (level.width - model.window_width, level.height - model.window_height);
                (across / level.step + 1) * (down / level.step + 1)
            })
            .sum();
        println!(
            "  {} levels, {} windows a search; native scalar {:.0} µs a search",
            detector.levels.len(),
            windows,
            started.elapsed().as_micros() as f32 / searches as f32
        );
        if std::env::var("FACE_DUMP").is_ok() {
            for (name, frame) in free.iter().filter(|(name, _)| name.starts_with("megamind")).take(12) {
                if let Some(face) = detector.detect(&SCALAR, frame, 160, 120) {
                    let path = format!("/tmp/fp/dump-{}.pgm", name.replace([' ', '#'], ""));
                    let mut bytes = b"P5 160 120 255\n".to_vec();
                    let mut frame = frame.clone();
                    let half = face.size / 2.0;
                    for step in 0..face.size as usize {
                        for (x, y) in [
                            (face.x - half + step as f32, face.y - half),
                            (face.x - half + step as f32, face.y + half - 1.0),
                            (face.x - half, face.y - half + step as f32),
                            (face.x + half - 1.0, face.y - half + step as f32),
                        ] {
                            if (0.0..160.0).contains(&x) && (0.0..120.0).contains(&y) {
                                frame[y as usize * 160 + x as usize] = 255;
                            }
                        }
                    }
                    bytes.extend_from_slice(&frame);
                    std::fs::write(path, bytes).expect("written");
                }
            }
        }
    }
}
