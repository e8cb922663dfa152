use super::model::{Feature, MAX_WINDOW};
use super::*;
use crate::kernels::{SCALAR, SIMD};
use crate::testing::Rng;

const VARIANTS: [&Kernels; 2] = [&SCALAR, &SIMD];

/// OpenCV's `detectMultiScale` defaults, every level down to the window
/// scanned (the synthetic pattern below is window-sized), levels under
/// scale 2 every second pixel.
const ALL_LEVELS: Tuning = Tuning { min_size: 0.0, scale_factor: 1.1, dense_scale: 2.0, ..Tuning::SHIPPED };

/// The bytes of a model in the format of `model.rs`.
fn encode(
    window: (u8, u8),
    features: &[[u8; 4]],
    stages: &[(u16, f32)],
    weak: &[(u16, [u8; 32], [f32; 2])],
) -> Vec<u8> {
    let mut bytes = b"WFCM".to_vec();
    bytes.extend_from_slice(&[1, window.0, window.1, 0]);
    bytes.extend_from_slice(&(stages.len() as u16).to_le_bytes());
    bytes.extend_from_slice(&(features.len() as u16).to_le_bytes());
    for feature in features {
        bytes.extend_from_slice(feature);
    }
    for (count, threshold) in stages {
        bytes.extend_from_slice(&count.to_le_bytes());
        bytes.extend_from_slice(&threshold.to_le_bytes());
    }
    for (feature, subset, leaves) in weak {
        bytes.extend_from_slice(&feature.to_le_bytes());
        bytes.extend_from_slice(subset);
        bytes.extend_from_slice(&leaves[0].to_le_bytes());
        bytes.extend_from_slice(&leaves[1].to_le_bytes());
    }
    bytes
}

/// A one-stump model on a 24 px window that takes a window whose centre
/// block (8 x 8) is brighter than all eight around it: LBP code 0. A
/// bright square passes in every window whose centre block holds it, so
/// only its centre is the model's answer, not its size.
pub(crate) fn bright_centre_model() -> Vec<u8> {
    let mut subset = [0u8; 32];
    subset[0] = 1;
    encode((24, 24), &[[0, 0, 8, 8]], &[(1, 0.0)], &[(0, subset, [1.0, -1.0])])
}

#[test]
fn parse_reads_a_well_formed_model() {
    let model = FaceModel::parse(&bright_centre_model()).expect("a model");
    assert_eq!((model.window_width, model.window_height), (24, 24));
    assert_eq!(model.features, vec![Feature { x: 0, y: 0, width: 8, height: 8 }]);
    assert_eq!(model.stages.len(), 1);
    assert_eq!(model.stages[0].weak_count, 1);
    assert!(model.stages[0].threshold < 0.0 && model.stages[0].threshold > -1e-4);
    assert_eq!(model.weak[0].leaves, [1.0, -1.0]);
}

#[test]
fn parse_rejects_malformed_bytes() {
    let good = bright_centre_model();
    for length in 0..good.len() {
        assert_eq!(FaceModel::parse(&good[..length]), None, "truncated to {}", length);
    }
    let mut longer = good.clone();
    longer.push(0);
    assert_eq!(FaceModel::parse(&longer), None, "a byte too many");
    let subset = [0u8; 32];
    let weak = [(0, subset, [1.0, -1.0])];
    let rejected: [(&str, Vec<u8>); 9] = [
        ("magic", [b"WFCX".as_slice(), &good[4..]].concat()),
        ("version", [b"WFCM\x02".as_slice(), &good[5..]].concat()),
        ("empty window", encode((0, 24), &[[0, 0, 1, 1]], &[(1, 0.0)], &weak)),
        ("window too large", encode((MAX_WINDOW as u8 + 1, 24), &[[0, 0, 1, 1]], &[(1, 0.0)], &weak)),
        ("feature past the window", encode((24, 24), &[[1, 0, 8, 8]], &[(1, 0.0)], &weak)),
        ("empty block", encode((24, 24), &[[0, 0, 0, 8]], &[(1, 0.0)], &weak)),
        ("feature index", encode((24, 24), &[[0, 0, 8, 8]], &[(1, 0.0)], &[(1, subset, [1.0, -1.0])])),
        ("not a number", encode((24, 24), &[[0, 0, 8, 8]], &[(1, 0.0)], &[(0, subset, [f32::NAN, -1.0])])),
        ("empty stage", encode((24, 24), &[[0, 0, 8, 8]], &[(0, 0.0), (1, 0.0)], &weak)),
    ];
    for (what, bytes) in rejected {
        assert_eq!(FaceModel::parse(&bytes), None, "{}", what);
    }
    let mut rng = Rng::new(11);
    for length in [0, 1, 12, 100, 6514] {
        let mut garbage = vec![0u8; length];
        rng.fill(&mut garbage);
        assert_eq!(FaceModel::parse(&garbage), None, "{} random bytes", length);
        if length < 5 {
            continue;
        }
        garbage[..4].copy_from_slice(b"WFCM");
        garbage[4] = 1;
        assert_eq!(FaceModel::parse(&garbage), None, "{} random bytes after the magic", length);
    }
    assert_eq!(FaceModel::parse(&vec![0; model::MAX_MODEL_BYTES + 1]), None);
}

/// A dark image with a bright `side` square at `(x, y)`.
fn bright_square(width: usize, height: usize, x: usize, y: usize, side: usize) -> Vec<u8> {
    (0..width * height)
        .map(|i| if (x..x + side).contains(&(i % width)) && (y..y + side).contains(&(i / width)) { 200 } else { 30 })
        .collect()
}

#[test]
fn finds_the_one_pattern_the_synthetic_model_takes() {
    let model = FaceModel::parse(&bright_centre_model()).expect("a model");
    for kernels in VARIANTS {
        let mut detector = FaceDetector::with_tuning(model.clone(), ALL_LEVELS);
        for (width, height, x, y) in [(160, 120, 50, 40), (97, 61, 71, 9), (160, 120, 8, 8)] {
            let face = detector.detect(kernels, &bright_square(width, height, x, y, 8), width, height);
            let face = face.unwrap_or_else(|| panic!("{} {}x{}: no face", kernels.name, width, height));
            let label = format!("{} {}x{} {:?}", kernels.name, width, height, face);
            // Within the step and the rounding of the scales.
            assert!((face.x - (x + 4) as f32).abs() <= 2.5 && (face.y - (y + 4) as f32).abs() <= 2.5, "{}", label);
            assert!(face.size >= 24.0, "{}", label);
            assert_eq!(detector.detect(kernels, &vec![30; width * height], width, height), None, "{}: flat", label);
        }
        // An image smaller than the window has no window to look at.
        assert_eq!(detector.detect(kernels, &[30; 23 * 40], 23, 40), None);
        assert_eq!(detector.detect(kernels, &[30; 10], 0, 10), None);
        assert_eq!(detector.detect(kernels, &[30; 10], 4, 4), None, "fewer pixels than the size says");
        // The shipped tuning skips the levels of faces under its smallest
        // size: the pattern is found on larger windows only.
        let mut shipped = FaceDetector::new(model.clone());
        let face = shipped.detect(kernels, &bright_square(160, 120, 50, 40, 8), 160, 120).expect("a face");
        assert!(face.size >= Tuning::SHIPPED.min_size, "{} {:?}", kernels.name, face);
        assert!((face.x - 54.0).abs() <= 4.0 && (face.y - 44.0).abs() <= 4.0, "{} {:?}", kernels.name, face);
    }
}

#[test]
fn groups_keep_the_strongest_and_drop_single_hits() {
    let mut detector = FaceDetector::new(FaceModel::parse(&bright_centre_model()).expect("a model"));
    detector.prepare(160, 120);
    let square = |x, y, size| Square { x, y, size };
    // A lone hit, a group of four at 40 px and a group of six at 30 px.
    detector.hits.push(square(100, 80, 24));
    detector.hits.extend([square(10, 10, 40), square(11, 10, 40), square(10, 12, 42), square(12, 11, 40)]);
    detector.hits.extend((0..6).map(|i| square(60 + i, 30, 30)));
    // The six's mean x, 62.5, rounds half away from zero.
    assert_eq!(detector.best_group(), Some(Face { x: 78.0, y: 45.0, size: 30.0 }));
    // Three hits are no more than FACE_MIN_NEIGHBOURS (3); four are.
    detector.hits.truncate(4);
    assert_eq!(detector.best_group(), None);
    detector.hits.push(square(10, 11, 40));
    assert_eq!(detector.best_group(), Some(Face { x: 30.5, y: 31.5, size: 41.0 }));
}

/// The model `scripts/face-model.mjs` writes; `npm test` builds it before
/// `cargo test` (scripts/test.mjs), so it is required, not optional.
pub(crate) fn real_model() -> FaceModel {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/pkg/face-model.bin");
    let bytes = std::fs::read(path)
        .unwrap_or_else(|error| panic!("{}: {} (write it with `node scripts/face-model.mjs`)", path, error));
    FaceModel::parse(&bytes).expect("the generated model parses")
}

#[test]
fn the_real_model_parses_and_finds_no_face_in_noise() {
    let model = real_model();
    assert_eq!((model.window_width, model.window_height), (24, 24));
    assert_eq!((model.stages.len(), model.features.len(), model.weak.len()), (20, 136, 139));
    let mut rng = Rng::new(12);
    for (width, height) in [(160, 120), (33, 25), (120, 160)] {
        let mut noise = vec![0u8; width * height];
        rng.fill(&mut noise);
        for kernels in VARIANTS {
            let mut detector = FaceDetector::new(model.clone());
            assert_eq!(
                detector.detect(kernels, &noise, width, height),
                None,
                "{} noise {}x{}",
                kernels.name,
                width,
                height
            );
            assert_eq!(
                detector.detect(kernels, &vec![128; width * height], width, height),
                None,
                "{} flat",
                kernels.name
            );
        }
    }
}

#[test]
fn both_kernel_sets_hit_the_same_windows_of_the_real_model() {
    let model = real_model();
    // Smooth blobs: enough structure for some windows to pass early stages.
    let (width, height) = (161, 121);
    let mut rng = Rng::new(13);
    let centres: Vec<(f32, f32, f32)> =
        (0..12).map(|_| (rng.byte() as f32 * 0.63, rng.byte() as f32 * 0.47, 4.0 + rng.byte() as f32 / 16.0)).collect();
    let grey: Vec<u8> = (0..width * height)
        .map(|i| {
            let (x, y) = ((i % width) as f32, (i / width) as f32);
            let shade: f32 =
                centres.iter().map(|(cx, cy, r)| 90.0 * (-((x - cx).powi(2) + (y - cy).powi(2)) / (r * r)).exp()).sum();
            (60.0 + shade).min(255.0) as u8
        })
        .collect();
    let mut hits = Vec::new();
    for kernels in VARIANTS {
        let mut detector = FaceDetector::with_tuning(model.clone(), ALL_LEVELS);
        let face = detector.detect(kernels, &grey, width, height);
        hits.push((detector.hits.clone(), face));
    }
    assert_eq!(hits[0], hits[1]);
}

#[test]
fn a_search_box_filters_the_frame_to_its_width_and_answers_in_frame_pixels() {
    for kernels in VARIANTS {
        let mut search = FaceSearch::new(640, 480);
        assert_eq!(search.detect(kernels, &vec![30; 640 * 480]), None, "no model");
        assert!(search.model_bytes_mut(0).is_none());
        assert!(search.model_bytes_mut(model::MAX_MODEL_BYTES + 1).is_none());
        search.model_bytes_mut(5).expect("room").copy_from_slice(b"WFCM\x01");
        assert!(!search.load() && !search.has_model());
        let bytes = bright_centre_model();
        search.model_bytes_mut(bytes.len()).expect("room").copy_from_slice(&bytes);
        assert!(search.load() && search.has_model());
        search.detector.as_mut().expect("a detector").tuning = ALL_LEVELS;
        // 32 px at 640 wide is 8 px at 160: the synthetic model's pattern.
        let face = search.detect(kernels, &bright_square(640, 480, 200, 160, 32)).expect("a face");
        assert!((face.x - 216.0).abs() <= 10.0 && (face.y - 176.0).abs() <= 10.0, "{} {:?}", kernels.name, face);
        assert!(face.size >= 96.0, "{} {:?}", kernels.name, face);
        // A frame no wider than the search is searched as it is.
        let mut narrow = FaceSearch::new(97, 61);
        narrow.model_bytes_mut(bytes.len()).expect("room").copy_from_slice(&bytes);
        assert!(narrow.load());
        narrow.detector.as_mut().expect("a detector").tuning = ALL_LEVELS;
        let face = narrow.detect(kernels, &bright_square(97, 61, 71, 9, 8)).expect("a face");
        assert!((face.x - 75.0).abs() <= 2.5 && (face.y - 13.0).abs() <= 2.5, "{} {:?}", kernels.name, face);
    }
}
