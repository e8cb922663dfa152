//! The per-pixel kernels, each with a scalar path and a simd128 path of the
//! same signature. The analyser calls them once a row (or once an image),
//! through a `Kernels` table, so tests can run it over either set.

pub mod scalar;

use crate::face::FaceModel;
use crate::grid::{Divisors, Span, Window};
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
pub mod simd;

/// What the fused luma pass learns from a stretch of a row.
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
    /// Sum of the y coordinates of those pixels.
    pub changed_y_sum: u32,
}

/// Per piece and channel (R, G, B), four 32-bit partial sums, which the
/// luma kernel adds to: `piece * 12 + channel * 4 + lane`. The caller owns
/// and clears them, so the kernel neither clears nor returns an array (for
/// engines, small fills and copies are calls).
pub const PIECE_LANES: usize = MAX_PIECES * 3 * 4;

/// A row is cut into at most three pieces (the area columns).
pub const MAX_PIECES: usize = 3;

/// The tallest block `luma_diff_rows` takes, which keeps its 32-bit sums
/// from overflowing at 4096 pixels a row (a box-filter span is at most 41).
pub const MAX_BLOCK_ROWS: usize = 64;

impl RowStats {
    pub fn merge(self, other: RowStats) -> RowStats {
        RowStats {
            diff_sum: self.diff_sum + other.diff_sum,
            luma_sum: self.luma_sum + other.luma_sum,
            max_luma: self.max_luma.max(other.max_luma),
            changed: self.changed + other.changed,
            changed_x_sum: self.changed_x_sum + other.changed_x_sum,
            changed_y_sum: self.changed_y_sum + other.changed_y_sum,
        }
    }
}

/// The index of the piece holding `x`: how many cuts are at or before it.
#[inline(always)]
pub fn piece_of(x: usize, cuts: &[usize]) -> usize {
    cuts.iter().filter(|&&cut| cut <= x).count()
}

/// The signature of `Kernels::luma_diff_rows`:
/// `(rgba, prev, column_luma, cuts, y0, start_columns, piece_lanes)`.
pub type LumaDiffRows = fn(&[u8], &mut [u8], &mut [u16], &[usize], usize, bool, &mut [u32]) -> RowStats;

/// The signature of `Kernels::span_means`:
/// `(columns, spans, windows, channels, divisors, scratch, out)`.
pub type SpanMeans = fn(&[u16], &[Span], &[Window], usize, &Divisors, &mut [u32], &mut [u8]);

/// The signature of `Kernels::integral`: `(pixels, width, split, scratch, out)`.
pub type Integral = fn(&[u8], usize, bool, &mut [u32], &mut [u32]);

/// The signature of `Kernels::cascade`: `(model, stumps, integral, base, accepted)`.
pub type Cascade = fn(&FaceModel, &StumpCorners, &[u32], usize, &mut [u8]);

/// Where a pyramid level's stumps read the integral image. A feature's 16
/// block corners are a 4x4 grid: corner `(row, column)` is `rows[row] +
/// columns[column]` from a window's place, so each stump keeps its four
/// row offsets then its four column offsets, in bytes (a load adds the
/// two, with no multiply); and one past the largest corner, in values, so
/// that a kernel checks its reads once a call, not once a load.
pub struct StumpCorners {
    offsets: Vec<u32>,
    reach: usize,
}

impl StumpCorners {
    /// The corners of `model`'s stumps, in order, given the integral image's
    /// row stride and where column `dx` of a window lies from its first
    /// column (`integral_column` of a level's layout).
    pub fn new(model: &FaceModel, stride: usize, column: impl Fn(usize) -> usize) -> StumpCorners {
        let mut offsets = Vec::with_capacity(model.weak.len() * 8);
        let mut reach = 0;
        for weak in &model.weak {
            let feature = model.features[weak.feature];
            let (x, y, w, h) =
                (feature.x as usize, feature.y as usize, feature.width as usize, feature.height as usize);
            // The farthest corner is the last row's plus the farthest column
            // (split columns are not in order).
            let (mut corners, mut farthest) = ([0u32; 8], 0);
            for at in 0..4 {
                let dx = column(x + at * w);
                farthest = farthest.max(dx);
                corners[at] = ((y + at * h) * stride * 4) as u32;
                corners[4 + at] = (dx * 4) as u32;
            }
            reach = reach.max((y + 3 * h) * stride + farthest + 1);
            offsets.extend_from_slice(&corners);
        }
        StumpCorners { offsets, reach }
    }

    /// Each stump's four row offsets then four column offsets, in bytes.
    #[inline(always)]
    pub fn per_stump(&self) -> core::slice::ChunksExact<'_, u32> {
        self.offsets.chunks_exact(8)
    }

    /// Whether `windows` windows from `base`, read `lanes` at a time (the
    /// last group whole), stay inside an integral image of `length` values,
    /// and there is a stump's corners for every weak classifier of `model`:
    /// what the kernels check once before reading without bounds checks.
    #[inline(always)]
    pub fn fit(&self, model: &FaceModel, base: usize, windows: usize, lanes: usize, length: usize) -> bool {
        let stumps: usize = model.stages.iter().map(|stage| stage.weak_count).sum();
        let read = (windows + lanes - 1) / lanes * lanes;
        stumps == model.weak.len()
            && self.offsets.len() == stumps * 8
            && (windows == 0 || base + read - 1 + self.reach <= length)
    }
}

/// A stump's 16 corner addresses from a window's first value, row by row.
///
/// # Safety
///
/// `offsets` are a stump's of `StumpCorners` and every corner from `window`
/// is inside the allocation `window` points into.
#[inline(always)]
pub unsafe fn stump_corners(offsets: &[u32], window: *const u32) -> [[*const u32; 4]; 4] {
    let offsets: &[u32; 8] = offsets.try_into().expect("8 offsets");
    let bytes = window as *const u8;
    [0, 1, 2, 3].map(|row| {
        let row = bytes.add(offsets[row] as usize);
        [4, 5, 6, 7].map(|column| row.add(offsets[column] as usize) as *const u32)
    })
}

/// Where column `column` of an integral image row of `stride` values sits:
/// in place, or with the columns split, the even ones first.
#[inline(always)]
pub fn integral_column(column: usize, stride: usize, split: bool) -> usize {
    if split {
        (column & 1) * ((stride + 1) / 2) + column / 2
    } else {
        column
    }
}

/// One implementation of every kernel.
pub struct Kernels {
    pub name: &'static str,
    /// The fused pass over a block of rows, `column_luma.len()` pixels wide
    /// and at most `MAX_BLOCK_ROWS` tall, the first being row `y0`: converts
    /// RGBA to luma, diffs it against `prev` (the previous frame's luma of
    /// those rows) and replaces `prev` with it, adds it to `column_luma` (the
    /// vertical sums of the box filter; with `start_columns` the block's first
    /// row replaces them instead), and returns the statistics; it adds the R,
    /// G, B sums of each piece between the ascending `cuts` (at most two) to
    /// `piece_lanes` (see `PIECE_LANES`).
    /// A block, not a row, per call: the per-call work (reductions, pieces)
    /// would otherwise cost as much as a narrow row's pixels.
    pub luma_diff_rows: LumaDiffRows,
    /// Adds a row of bytes to 16-bit column sums of the same length.
    pub add_row: fn(row: &[u8], columns: &mut [u16]),
    /// Starts 16-bit column sums from a row of bytes.
    pub set_row: fn(row: &[u8], columns: &mut [u16]),
    /// Sets 16-bit column sums to the sums of a block of rows of
    /// `columns.len()` bytes (at most 257 rows, so that they fit): each
    /// chunk of columns is summed down the block in registers and stored once.
    pub sum_rows: fn(rows: &[u8], columns: &mut [u16]),
    /// For each span, the rounded means of `channels` interleaved 16-bit
    /// column sums over its columns: `(sum + half) / count` per value, with
    /// the halves and counts in `divisors`.
    /// `scratch` has room for one value more than `columns` holds, plus one
    /// per output value, plus `WINDOW_VALUES`. `windows` are the spans'
    /// windows (see `grid::Window`), or none.
    pub span_means: SpanMeans,
    /// Sum of absolute differences of two equally long byte strings, or,
    /// once the sum so far is past `bound`, that sum: a whitelist image that
    /// cannot beat the best so far need not be read to its end.
    pub sum_abs_diff: fn(a: &[u8], b: &[u8], bound: u32) -> u32,
    /// The integral image of `pixels` (rows of `width` bytes) into `out`:
    /// `width + 1` values a row, one row more than the image, the first row
    /// and column zero, each value the sum of the pixels above and left of
    /// it, wrapping in 32 bits (a difference of four is still exact). With
    /// `split` each row holds its even columns first, then its odd ones
    /// (`integral_column`). `scratch` has room for a row plus four values.
    pub integral: Integral,
    /// Runs the face cascade on `accepted.len()` windows whose places in
    /// the integral image are `base`, `base + 1`, ...: `stumps` says where
    /// each stump reads (see `StumpCorners`). Sets each window's byte to 1
    /// when it passes every stage, else 0. The integral image has four
    /// values of room past its end: a SIMD set evaluates four windows at
    /// once. Panics when the reads would leave the integral image.
    pub cascade: Cascade,
}

pub const SCALAR: Kernels = Kernels {
    name: "scalar",
    luma_diff_rows: scalar::luma_diff_rows,
    add_row: scalar::add_row,
    set_row: scalar::set_row,
    sum_rows: scalar::sum_rows,
    span_means: scalar::span_means,
    sum_abs_diff: scalar::sum_abs_diff,
    integral: scalar::integral,
    cascade: scalar::cascade,
};

#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
pub const SIMD: Kernels = Kernels {
    name: "simd128",
    luma_diff_rows: simd::luma_diff_rows,
    add_row: simd::add_row,
    set_row: simd::set_row,
    sum_rows: simd::sum_rows,
    span_means: simd::span_means,
    sum_abs_diff: simd::sum_abs_diff,
    integral: simd::integral,
    cascade: simd::cascade,
};

/// The fastest set this build was compiled for.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub const BEST: &Kernels = &SIMD;
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub const BEST: &Kernels = &SCALAR;

#[cfg(test)]
mod tests;
