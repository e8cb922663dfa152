//! The analyser on both kernel sets against the reference, and the event
//! rules driven by real frames.

use super::*;
use crate::events::{EVENT_AWAY, EVENT_BACK, EVENT_DARKNESS, EVENT_MOTION, EVENT_NODDING, EVENT_NO_MOTION};
use crate::grid::fit_within;
use crate::kernels::{SCALAR, SIMD};
use crate::testing::*;

const VARIANTS: [&Kernels; 2] = [&SCALAR, &SIMD];
const SIZES: [(usize, usize); 7] = [(1, 1), (2, 3), (17, 9), (99, 101), (160, 120), (120, 160), (161, 121)];

fn analyser(width: usize, height: usize, kernels: &'static Kernels) -> Analyser {
    Analyser::with_kernels(width as u32, height as u32, false, false, kernels).expect("a supported size")
}

fn feed(analyser: &mut Analyser, frame: &[u8], time_ms: f64) -> FrameResult {
    analyser.frame_mut().copy_from_slice(frame);
    analyser.process(time_ms)
}

fn close(a: f32, b: f64) -> bool {
    (a as f64 - b).abs() <= 1e-6 * b.abs().max(1.0)
}

#[test]
fn every_field_matches_the_reference_on_random_frames() {
    for kernels in VARIANTS {
        for (width, height) in SIZES {
            let mut rng = Rng::new((width * 1000 + height) as u64);
            let mut analyser = analyser(width, height, kernels);
            let mut previous_luma = vec![0u8; width * height];
            let mut previous_areas: Option<[[u8; 3]; 9]> = None;
            let mut whitelist = vec![0u8; 2 * THUMBNAIL_BYTES];
            rng.fill(&mut whitelist);
            analyser.whitelist_mut(2).unwrap().copy_from_slice(&whitelist);
            for index in 0..4 {
                let mut frame = vec![0u8; width * height * 4];
                rng.fill(&mut frame);
                if index == 2 {
                    // A still frame: same pixels as before.
                    frame = scene(width, height, 0, 0, 9);
                    feed(&mut analyser, &frame, index as f64 * 1000.0);
                    previous_luma = reference_luma(&frame);
                    previous_areas = Some(reference_frame(&frame, width, height, &previous_luma).area_means);
                }
                let expected = reference_frame(&frame, width, height, &previous_luma);
                let result = feed(&mut analyser, &frame, index as f64 * 1000.0 + 500.0);
                let label = format!("{} {}x{} frame {}", kernels.name, width, height, index);
                let pixels = (width * height) as f64;
                let has_previous = index > 0;

                assert_eq!(result.flags & FLAG_HAS_PREVIOUS != 0, has_previous, "{}", label);
                if has_previous {
                    assert!(close(result.motion_score, expected.diff_sum as f64 / pixels), "{}", label);
                    assert!(close(result.changed_ratio, expected.changed as f64 / pixels), "{}", label);
                }
                assert!(close(result.mean_luma, expected.luma_sum as f64 / pixels), "{}", label);
                assert_eq!(result.flags & FLAG_ALL_BLACK != 0, expected.max_luma <= 16, "{}", label);
                let centroid_expected = has_previous && expected.changed >= ((width * height) as u64 / 200).max(1);
                assert_eq!(result.flags & FLAG_HAS_CENTROID != 0, centroid_expected, "{}", label);
                if centroid_expected {
                    let changed = expected.changed as f64;
                    assert!(
                        close(result.centroid_x, (expected.changed_x_sum as f64 / changed + 0.5) / width as f64),
                        "{}",
                        label
                    );
                    assert!(
                        close(result.centroid_y, (expected.changed_y_sum as f64 / changed + 0.5) / height as f64),
                        "{}",
                        label
                    );
                }
                assert_eq!(analyser.thumbnail(), &expected.thumbnail[..], "{} thumbnail", label);
                assert_eq!(result.area_means, expected.area_means, "{}", label);
                let mut areas_changed = 0;
                if let Some(before) = previous_areas {
                    for (area, (now, was)) in expected.area_means.iter().zip(&before).enumerate() {
                        if now.iter().zip(was).any(|(a, b)| a.abs_diff(*b) > 50) {
                            areas_changed |= 1 << area;
                        }
                    }
                }
                assert_eq!(result.areas_changed, areas_changed, "{}", label);
                let scores: Vec<u32> = whitelist
                    .chunks_exact(THUMBNAIL_BYTES)
                    .map(|image| image.iter().zip(&expected.thumbnail).map(|(a, b)| a.abs_diff(*b) as u32).sum())
                    .collect();
                let best = if scores[1] < scores[0] { 1 } else { 0 };
                assert_eq!(result.whitelist_index, best, "{}", label);
                assert!(close(result.whitelist_score, scores[best as usize] as f64 / 10_000.0), "{}", label);

                previous_luma = expected.luma;
                previous_areas = Some(expected.area_means);
            }
        }
    }
}

#[test]
fn both_kernel_sets_give_identical_records() {
    for (width, height) in SIZES.iter().copied().chain([(640, 480)]) {
        let mut scalar = analyser(width, height, &SCALAR);
        let mut simd = analyser(width, height, &SIMD);
        for step in 0..3 {
            let frame = scene(width, height, step * width / 8, step * height / 8, step as u64);
            feed(&mut scalar, &frame, step as f64 * 1000.0);
            feed(&mut simd, &frame, step as f64 * 1000.0);
            assert_eq!(scalar.result_words(), simd.result_words(), "{}x{} step {}", width, height, step);
            assert_eq!(scalar.thumbnail(), simd.thumbnail());
            let (a, b) = (scalar.patrol().rgba.to_vec(), simd.patrol().rgba.to_vec());
            assert_eq!(a, b, "{}x{} patrol", width, height);
        }
    }
}

#[test]
fn the_patrol_thumbnail_matches_the_reference() {
    for kernels in VARIANTS {
        for (width, height) in SIZES.iter().copied().chain([(640, 480), (4096, 3)]) {
            let mut analyser = analyser(width, height, kernels);
            let frame = scene(width, height, width / 3, height / 3, 5);
            analyser.frame_mut().copy_from_slice(&frame);
            let (patrol_width, patrol_height) = fit_within(width, height, 100);
            let cells = reference_box(&frame, 4, width, height, patrol_width, patrol_height);
            let expected: Vec<u8> = cells
                .iter()
                .flat_map(|(sums, count)| sums.iter().map(|sum| rounded_mean(*sum, *count)).collect::<Vec<_>>())
                .collect();
            let patrol = analyser.patrol();
            assert_eq!((patrol.width, patrol.height), (patrol_width, patrol_height));
            assert!(patrol.width.max(patrol.height) <= 100);
            assert_eq!(patrol.rgba, &expected[..], "{} {}x{}", kernels.name, width, height);
            assert!(!patrol.all_black);
        }
    }
}

#[test]
fn black_frames_are_all_black_and_dark() {
    for kernels in VARIANTS {
        let mut analyser = analyser(161, 121, kernels);
        let result = feed(&mut analyser, &flat(161, 121, [10, 12, 9]), 0.0);
        assert_ne!(result.flags & FLAG_ALL_BLACK, 0);
        assert_ne!(result.flags & FLAG_DARK, 0);
        assert!(analyser.patrol().all_black);
        let result = feed(&mut analyser, &flat(161, 121, [30, 30, 30]), 1000.0);
        assert_eq!(result.flags & FLAG_ALL_BLACK, 0);
        assert_ne!(result.flags & FLAG_DARK, 0);
        assert!(!analyser.patrol().all_black);
    }
}

#[test]
fn a_still_camera_raises_no_motion_after_180_seconds_and_motion_when_it_moves() {
    for kernels in VARIANTS {
        let (width, height) = (33, 17);
        let mut analyser = analyser(width, height, kernels);
        let still = scene(width, height, 4, 4, 1);
        let mut fired = Vec::new();
        for second in 0..=185 {
            let result = feed(&mut analyser, &still, second as f64 * 1000.0);
            if result.events != 0 {
                fired.push((second, result.events));
            }
        }
        // Frame 0 has no previous; frames 1..=180 are the 180 still seconds.
        assert_eq!(fired, vec![(180, EVENT_NO_MOTION)], "{}", kernels.name);
        let moved = scene(width, height, 20, 10, 1);
        let result = feed(&mut analyser, &moved, 186_000.0);
        assert_eq!(result.events, EVENT_MOTION);
        assert!(result.motion_score > 1.5);
        assert_ne!(result.areas_changed, 0);
    }
}

#[test]
fn a_whitelisted_still_scene_never_raises_no_motion() {
    let (width, height) = (40, 30);
    let mut analyser = analyser(width, height, &SIMD);
    let still = scene(width, height, 4, 4, 1);
    feed(&mut analyser, &still, 0.0);
    let approved = analyser.thumbnail().to_vec();
    analyser.whitelist_mut(1).unwrap().copy_from_slice(&approved);
    for second in 1..400 {
        let result = feed(&mut analyser, &still, second as f64 * 1000.0);
        assert_eq!(result.events, 0);
        assert_ne!(result.flags & FLAG_WHITELISTED, 0);
        assert_eq!(result.whitelist_index, 0);
        assert_eq!(result.whitelist_score, 0.0);
    }
}

#[test]
fn darkness_fires_once_after_thirty_dark_seconds() {
    let mut analyser = analyser(20, 20, &SIMD);
    let mut fired = Vec::new();
    for second in 0..60 {
        // Flicker so that darkness, not stillness, is what is tested.
        let level = if second % 2 == 0 { 5 } else { 25 };
        let result = feed(&mut analyser, &flat(20, 20, [level, level, level]), second as f64 * 1000.0);
        assert_ne!(result.flags & FLAG_DARK, 0);
        if result.events & EVENT_DARKNESS != 0 {
            fired.push(second);
        }
    }
    assert_eq!(fired, vec![29]);
}

#[test]
fn sizes_out_of_range_are_refused() {
    assert!(Analyser::new(0, 1, false, false).is_none());
    assert!(Analyser::new(1, 0, false, false).is_none());
    assert!(Analyser::new(4097, 1, false, false).is_none());
    assert!(Analyser::new(4096, 1, false, false).is_some());
    let mut analyser = Analyser::new(10, 10, false, false).unwrap();
    assert!(analyser.whitelist_mut(65).is_none());
    assert_eq!(analyser.whitelist_mut(0).map(|images| images.len()), Some(0));
}

#[test]
fn the_record_layout_is_the_documented_one() {
    let mut analyser = analyser(3, 3, &SCALAR);
    let result = feed(&mut analyser, &flat(3, 3, [200, 100, 50]), 0.0);
    let words = analyser.result_words();
    assert_eq!(f32::from_bits(words[4]), result.mean_luma);
    assert_eq!(words[8] as i32, -1);
    assert_eq!(f32::from_bits(words[9]), 255.0);
    let bytes: Vec<u8> = words[13..].iter().flat_map(|word| word.to_le_bytes()).collect();
    assert_eq!(&bytes[..3], &[200, 100, 50]);
    assert_eq!(&bytes[24..27], &[200, 100, 50]);
}

/// A lit room's grey: not dark.
const ROOM: [u8; 3] = [90, 90, 90];

/// An RGBA frame of the room's grey but for a bright `side` square at `(x, y)`.
fn bright_square_frame(width: usize, height: usize, x: usize, y: usize, side: usize) -> Vec<u8> {
    let mut frame = flat(width, height, ROOM);
    for row in y..y + side {
        for column in x..x + side {
            frame[(row * width + column) * 4..(row * width + column) * 4 + 3].copy_from_slice(&[230, 230, 230]);
        }
    }
    frame
}

fn with_face_model(analyser: &mut Analyser) {
    let model = crate::face::tests::bright_centre_model();
    analyser.face_model_mut(model.len()).expect("room for the model").copy_from_slice(&model);
    assert!(analyser.load_face_model());
}

#[test]
fn the_face_found_goes_into_the_record_as_fractions_of_the_frame() {
    for kernels in VARIANTS {
        // The iPhone's frame is searched box-filtered to 160 wide: the square
        // is then the synthetic model's 8 px.
        for (width, height, x, y, side) in [(160, 120, 50, 40, 8), (640, 480, 200, 160, 32)] {
            let mut analyser = analyser(width, height, kernels);
            let without = feed(&mut analyser, &bright_square_frame(width, height, x, y, side), 0.0);
            assert_eq!(without.flags & (FLAG_FACE | FLAG_FACE_DETECTOR), 0, "no model, no face looked for");
            assert_eq!(without.face, None);
            with_face_model(&mut analyser);
            let result = feed(&mut analyser, &bright_square_frame(width, height, x, y, side), 1000.0);
            let label = format!("{} {}x{}", kernels.name, width, height);
            assert_eq!(result.flags & (FLAG_FACE | FLAG_FACE_DETECTOR), FLAG_FACE | FLAG_FACE_DETECTOR, "{}", label);
            let face = result.face.expect("a face");
            let centre = ((x + side / 2) as f32 / width as f32, (y + side / 2) as f32 / height as f32);
            assert!((face.x - centre.0).abs() < 0.02 && (face.y - centre.1).abs() < 0.03, "{} {:?}", label, face);
            let words = result.to_words();
            assert_eq!(f32::from_bits(words[WORD_FACE_X]), face.x, "{}", label);
            assert_eq!(f32::from_bits(words[WORD_FACE_SIZE]), face.size, "{}", label);
            let empty = feed(&mut analyser, &flat(width, height, ROOM), 2000.0);
            assert_eq!(empty.flags & (FLAG_FACE | FLAG_FACE_DETECTOR), FLAG_FACE_DETECTOR, "{}", label);
            assert_eq!((empty.face, empty.no_face_ms), (None, 1000), "{}", label);
        }
    }
}

#[test]
fn an_empty_seat_is_away_after_the_count_and_back_when_the_face_returns() {
    let mut analyser = analyser(160, 120, &SIMD);
    with_face_model(&mut analyser);
    let face = bright_square_frame(160, 120, 50, 40, 8);
    let empty = flat(160, 120, ROOM);
    let first = feed(&mut analyser, &face, 0.0);
    assert_eq!(first.events, 0, "{:?}", first);
    let mut away_at = Vec::new();
    for second in 1..=200 {
        let result = feed(&mut analyser, &empty, second as f64 * 1000.0);
        if result.events & EVENT_AWAY != 0 {
            away_at.push(second);
        }
        // One accusation for the empty, still seat.
        assert_eq!(result.events & EVENT_NO_MOTION, 0);
    }
    assert_eq!(away_at, vec![180]);
    let back = feed(&mut analyser, &face, 201_000.0);
    assert_ne!(back.events & EVENT_BACK, 0);
    assert_eq!(back.no_face_ms, 0);
}

#[test]
fn a_face_that_sinks_and_jerks_back_up_three_times_is_nodding() {
    for kernels in VARIANTS {
        let mut analyser = analyser(160, 120, kernels);
        with_face_model(&mut analyser);
        // The synthetic model's faces group to about 60 px: a sink of 18 px
        // in three steps and a jerk back up, then a rest.
        let cycle = [40, 46, 52, 58, 40, 40, 40, 40];
        let mut fired = Vec::new();
        for second in 0..cycle.len() * 4 {
            let y = cycle[second % cycle.len()];
            let result = feed(&mut analyser, &bright_square_frame(160, 120, 50, y, 8), second as f64 * 1000.0);
            assert!(result.face.is_some(), "{} second {}", kernels.name, second);
            if result.events & EVENT_NODDING != 0 {
                fired.push((second, result.nodding_count));
            }
        }
        assert_eq!(fired, vec![(20, NODDING_COUNT)], "{}", kernels.name);
    }
}

#[test]
fn a_face_that_looks_down_and_back_up_at_once_is_not_nodding() {
    let mut analyser = analyser(160, 120, &SIMD);
    with_face_model(&mut analyser);
    for second in 0..60 {
        let y = if second % 4 < 2 { 40 } else { 60 };
        let result = feed(&mut analyser, &bright_square_frame(160, 120, 50, y, 8), second as f64 * 1000.0);
        assert_eq!(result.nodding_count, 0, "second {}", second);
    }
}
