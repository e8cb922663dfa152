//! The face model: a boosted cascade of LBP stumps (OpenCV's
//! lbpcascade_frontalface.xml, converted by scripts/face-model.mjs).
//!
//! Binary format, little-endian, nothing between the parts:
//!
//! | bytes | what |
//! |---|---|
//! | 4 | magic `WFCM` |
//! | 1 | version, 1 |
//! | 1, 1 | window width, height in pixels (at most `MAX_WINDOW`) |
//! | 1 | 0 |
//! | 2 | stage count `S` (at least 1) |
//! | 2 | feature count `F` (at least 1) |
//! | `F` x 4 | per feature, `x y w h` (u8): a 3x3 grid of `w x h` blocks from `(x, y)` in the window |
//! | `S` x 6 | per stage, its weak classifier count (u16, at least 1) and threshold (f32) |
//! | `W` x 42 | per weak classifier (`W` the stages' counts added), stage after stage: the feature index (u16), the 256-bit set of LBP codes that take the first leaf (32 bytes, code `c` is bit `c % 8` of byte `c / 8`), the two leaves (f32) |
//!
//! The bytes come from outside the crate (fetched by the worker), so
//! `FaceModel::parse` checks every count, index and rectangle and rejects
//! anything else.

/// The largest window side a model may have.
pub const MAX_WINDOW: usize = 64;
/// The largest model `parse` takes, far above the 6.5 KB of the cascade.
pub const MAX_MODEL_BYTES: usize = 1 << 20;

const MAGIC: &[u8; 4] = b"WFCM";
const VERSION: u8 = 1;
const WEAK_BYTES: usize = 42;

/// A feature: the 3x3 grid of `width x height` blocks from `(x, y)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature {
    pub x: u8,
    pub y: u8,
    pub width: u8,
    pub height: u8,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stage {
    /// How many weak classifiers follow those of the stages before.
    pub weak_count: usize,
    /// A window whose sum of leaves is below this is rejected.
    pub threshold: f32,
}

/// A stump on one feature's LBP code.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weak {
    pub feature: usize,
    /// Code `c` takes `leaves[0]` when bit `c % 8` of byte `c / 8` is set.
    pub subset: [u8; 32],
    pub leaves: [f32; 2],
}

#[derive(Clone, Debug, PartialEq)]
pub struct FaceModel {
    pub window_width: usize,
    pub window_height: usize,
    pub features: Vec<Feature>,
    pub stages: Vec<Stage>,
    pub weak: Vec<Weak>,
}

/// OpenCV lowers each stage threshold by this, so that a sum equal to the
/// threshold (after rounding) still passes.
const THRESHOLD_EPS: f32 = 1e-5;

struct Bytes<'a> {
    rest: &'a [u8],
}

impl<'a> Bytes<'a> {
    fn take(&mut self, count: usize) -> Option<&'a [u8]> {
        if self.rest.len() < count {
            return None;
        }
        let (taken, rest) = self.rest.split_at(count);
        self.rest = rest;
        Some(taken)
    }

    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|bytes| bytes[0])
    }

    fn u16(&mut self) -> Option<usize> {
        self.take(2).map(|bytes| u16::from_le_bytes([bytes[0], bytes[1]]) as usize)
    }

    /// A finite `f32`: a NaN or an infinity would make every comparison of
    /// the cascade meaningless.
    fn f32(&mut self) -> Option<f32> {
        let bytes = self.take(4)?;
        Some(f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])).filter(|value| value.is_finite())
    }
}

impl FaceModel {
    /// The model in `bytes` (see the format above), or `None` when they are
    /// not exactly one well-formed model.
    pub fn parse(bytes: &[u8]) -> Option<FaceModel> {
        if bytes.len() > MAX_MODEL_BYTES {
            return None;
        }
        let mut bytes = Bytes { rest: bytes };
        if bytes.take(4)? != MAGIC || bytes.u8()? != VERSION {
            return None;
        }
        let (window_width, window_height) = (bytes.u8()? as usize, bytes.u8()? as usize);
        if bytes.u8()? != 0 || window_width == 0 || window_height == 0 {
            return None;
        }
        if window_width > MAX_WINDOW || window_height > MAX_WINDOW {
            return None;
        }
        let (stage_count, feature_count) = (bytes.u16()?, bytes.u16()?);
        if stage_count == 0 || feature_count == 0 {
            return None;
        }
        let mut features = Vec::with_capacity(feature_count);
        for _ in 0..feature_count {
            let rect = bytes.take(4)?;
            let feature = Feature { x: rect[0], y: rect[1], width: rect[2], height: rect[3] };
            let inside = |start: u8, side: u8, window: usize| side > 0 && start as usize + 3 * side as usize <= window;
            if !inside(feature.x, feature.width, window_width) || !inside(feature.y, feature.height, window_height) {
                return None;
            }
            features.push(feature);
        }
        let mut stages = Vec::with_capacity(stage_count);
        for _ in 0..stage_count {
            let weak_count = bytes.u16()?;
            let threshold = bytes.f32()? - THRESHOLD_EPS;
            if weak_count == 0 {
                return None;
            }
            stages.push(Stage { weak_count, threshold });
        }
        let weak_total: usize = stages.iter().map(|stage| stage.weak_count).sum();
        if bytes.rest.len() != weak_total * WEAK_BYTES {
            return None;
        }
        let mut weak = Vec::with_capacity(weak_total);
        for _ in 0..weak_total {
            let feature = bytes.u16()?;
            let mut subset = [0u8; 32];
            subset.copy_from_slice(bytes.take(32)?);
            let leaves = [bytes.f32()?, bytes.f32()?];
            if feature >= feature_count {
                return None;
            }
            weak.push(Weak { feature, subset, leaves });
        }
        Some(FaceModel { window_width, window_height, features, stages, weak })
    }
}
