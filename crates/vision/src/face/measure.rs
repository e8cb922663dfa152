//! Measurements of the detector on real photos (docs/vision.md, "Face"):
//! recall on composites, false faces on face-free footage, and the share of
//! windows each stage keeps. Ignored by default: they need ffmpeg and the
//! photos of Debian's opencv-doc (`FACE_PHOTOS`, default the footage cache
//! that `bench/footage/fetch.ts` fills). Run with
//! `cargo test --release measure -- --ignored --nocapture`.

use super::tests::real_model;
use super::*;
use crate::kernels::SCALAR;
use crate::params::luma;
use std::process::Command;

fn photo_dir() -> String {
    std::env::var("FACE_PHOTOS").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../bench/.cache/footage/debian-opencv-doc-4.6.0+dfsg-12/usr/share/doc/opencv-doc/opencv4/html"
        )
        .to_string()
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
            let point = |index: usize| integral[at + corners[index] as usize];
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
