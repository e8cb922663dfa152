//! The per-pixel kernels, each with a scalar path and a simd128 path of the
//! same signature. The analyser calls them once a row (or once an image),
//! through a `Kernels` table, so tests can run it over either set.

pub mod scalar;
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
pub mod simd;

use crate::grid::Span;

/// What the fused luma pass learns from one row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowStats {
    /// Sum of |Y - Yprev|.
    pub diff_sum: u32,
    /// Sum of Y.
    pub luma_sum: u32,
    /// Largest Y.
    pub max_luma: u8,
    /// Pixels with |Y - Yprev| above the pixel change threshold.
    pub changed: u32,
    /// Sum of the x coordinates of those pixels.
    pub changed_x_sum: u32,
}

impl RowStats {
    pub fn merge(self, other: RowStats) -> RowStats {
        RowStats {
            diff_sum: self.diff_sum + other.diff_sum,
            luma_sum: self.luma_sum + other.luma_sum,
            max_luma: self.max_luma.max(other.max_luma),
            changed: self.changed + other.changed,
            changed_x_sum: self.changed_x_sum + other.changed_x_sum,
        }
    }
}

/// One implementation of every kernel.
pub struct Kernels {
    pub name: &'static str,
    /// Converts a row of RGBA to luma, diffs it against `prev` (the previous
    /// frame's luma of that row), replaces `prev` with the new luma, and
    /// returns the row's statistics. `x0` is the x of the first pixel.
    pub luma_diff_row: fn(rgba: &[u8], prev: &mut [u8], x0: u32) -> RowStats,
    /// Adds each span's R, G, B and A sums of this RGBA row to `sums`.
    pub box_row_add: fn(rgba: &[u8], spans: &[Span], sums: &mut [[u32; 4]]),
    /// Sum of absolute differences of two equally long byte strings.
    pub sum_abs_diff: fn(a: &[u8], b: &[u8]) -> u32,
}

pub const SCALAR: Kernels = Kernels {
    name: "scalar",
    luma_diff_row: scalar::luma_diff_row,
    box_row_add: scalar::box_row_add,
    sum_abs_diff: scalar::sum_abs_diff,
};

#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
pub const SIMD: Kernels = Kernels {
    name: "simd128",
    luma_diff_row: simd::luma_diff_row,
    box_row_add: simd::box_row_add,
    sum_abs_diff: simd::sum_abs_diff,
};

/// The fastest set this build was compiled for.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub const BEST: &Kernels = &SIMD;
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub const BEST: &Kernels = &SCALAR;

#[cfg(test)]
mod tests;
