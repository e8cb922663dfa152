//! Plain Rust kernels: the fallback for engines without simd128, and the
//! tails of the SIMD kernels.

use super::{integral_column, stump_corners, RowStats, StumpCorners};
use crate::face::model::{FaceModel, Weak};
use crate::grid::{Divisors, Span, Window, MEAN_EPSILON};
use crate::params::{luma, PIXEL_CHANGE_THRESHOLD};

pub fn luma_diff_rows(
    rgba: &[u8],
    prev: &mut [u8],
    column_luma: &mut [u16],
    cuts: &[usize],
    y0: usize,
    start_columns: bool,
    piece_lanes: &mut [u32],
) -> RowStats {
    let width = column_luma.len();
    if start_columns {
        column_luma.iter_mut().for_each(|column| *column = 0);
    }
    let mut stats = RowStats::default();
    for (row, (rgba, prev)) in
        rgba.chunks_exact((width * 4).max(1)).zip(prev.chunks_exact_mut(width.max(1))).enumerate()
    {
        let mut row_stats = luma_diff_from(0, rgba, prev, column_luma, cuts, piece_lanes);
        row_stats.changed_y_sum = row_stats.changed * (y0 + row) as u32;
        stats = stats.merge(row_stats);
    }
    stats
}

/// The fused pass over the pixels of one row from `x0` to its end; the
/// slices start at `x0`, the cuts are positions in the whole row. The y sum
/// is left to the caller, which knows the row.
pub fn luma_diff_from(
    x0: usize,
    rgba: &[u8],
    prev: &mut [u8],
    column_luma: &mut [u16],
    cuts: &[usize],
    piece_lanes: &mut [u32],
) -> RowStats {
    let mut stats = RowStats::default();
    let mut piece = super::piece_of(x0, cuts);
    let pixels = rgba.chunks_exact(4).zip(prev.iter_mut()).zip(column_luma.iter_mut());
    for (offset, ((pixel, previous), column)) in pixels.enumerate() {
        let x = x0 + offset;
        while piece < cuts.len() && cuts[piece] <= x {
            piece += 1;
        }
        let y = luma(pixel[0], pixel[1], pixel[2]);
        let diff = y.abs_diff(*previous);
        *previous = y;
        *column += y as u16;
        stats.diff_sum += diff as u32;
        stats.luma_sum += y as u32;
        stats.max_luma = stats.max_luma.max(y);
        if diff > PIXEL_CHANGE_THRESHOLD {
            stats.changed += 1;
            stats.changed_x_sum += x as u32;
        }
        for (channel, value) in pixel[..3].iter().enumerate() {
            piece_lanes[piece * 12 + channel * 4] += *value as u32;
        }
    }
    stats
}

pub fn add_row(row: &[u8], columns: &mut [u16]) {
    for (column, value) in columns.iter_mut().zip(row) {
        *column += *value as u16;
    }
}

pub fn sum_rows(rows: &[u8], columns: &mut [u16]) {
    let width = columns.len();
    if width == 0 {
        return;
    }
    let mut rows = rows.chunks_exact(width);
    if let Some(first) = rows.next() {
        set_row(first, columns);
    }
    for row in rows {
        add_row(row, columns);
    }
}

pub fn set_row(row: &[u8], columns: &mut [u16]) {
    for (column, value) in columns.iter_mut().zip(row) {
        *column = *value as u16;
    }
}

/// `(sum + half) / count` for each value, given `half` and `1 / count`.
pub fn means(sums: &[u32], halves: &[u32], inverses: &[f32], out: &mut [u8]) {
    for (((value, sum), half), inverse) in out.iter_mut().zip(sums).zip(halves).zip(inverses) {
        *value = mean(*sum, *half, *inverse);
    }
}

#[inline(always)]
fn mean(sum: u32, half: u32, inverse: f32) -> u8 {
    (((sum + half) as f32) * inverse + MEAN_EPSILON) as u8
}

pub fn span_means(
    columns: &[u16],
    spans: &[Span],
    _windows: &[Window],
    channels: usize,
    divisors: &Divisors,
    scratch: &mut [u32],
    out: &mut [u8],
) {
    let (halves, inverses) = (&divisors.halves[..], &divisors.inverses[..]);
    // The channel count is fixed per grid; knowing it at compile time lets
    // the inner loop unroll.
    match channels {
        1 => grey_span_means(columns, spans, halves, inverses, scratch, out),
        4 => span_means_of::<4>(columns, spans, halves, inverses, out),
        _ => span_means_of_any(columns, spans, channels, halves, inverses, out),
    }
}

/// `span_means` for a channel count other than 1 and 4, which no grid has;
/// apart, so that the SIMD set's fallback to it brings no more code.
pub fn span_means_of_any(
    columns: &[u16],
    spans: &[Span],
    channels: usize,
    halves: &[u32],
    inverses: &[f32],
    out: &mut [u8],
) {
    for (index, span) in spans.iter().enumerate() {
        for channel in 0..channels {
            let at = index * channels + channel;
            let sum = (span.start..span.end).map(|x| columns[x * channels + channel] as u32).sum();
            out[at] = mean(sum, halves[at], inverses[at]);
        }
    }
}

/// One channel: `running[x]` = the sum of the columns before `x`, so each
/// cell's sum is a difference of two running sums, with no loop whose length
/// depends on the span (span lengths alternate, and such a loop's exit is
/// mispredicted).
pub fn running_sums(columns: &[u16], running: &mut [u32]) {
    let mut total = 0u32;
    running[0] = 0;
    for (slot, column) in running[1..].iter_mut().zip(columns) {
        total += *column as u32;
        *slot = total;
    }
}

fn grey_span_means(
    columns: &[u16],
    spans: &[Span],
    halves: &[u32],
    inverses: &[f32],
    scratch: &mut [u32],
    out: &mut [u8],
) {
    let running = &mut scratch[..columns.len() + 1];
    running_sums(columns, running);
    for (((span, value), half), inverse) in spans.iter().zip(out.iter_mut()).zip(halves).zip(inverses) {
        *value = mean(running[span.end] - running[span.start], *half, *inverse);
    }
}

fn span_means_of<const CHANNELS: usize>(
    columns: &[u16],
    spans: &[Span],
    halves: &[u32],
    inverses: &[f32],
    out: &mut [u8],
) {
    let cells = out.chunks_exact_mut(CHANNELS).zip(halves.chunks_exact(CHANNELS)).zip(inverses.chunks_exact(CHANNELS));
    for (span, ((cell, halves), inverses)) in spans.iter().zip(cells) {
        let sums = sums_over::<CHANNELS>(columns, span);
        for channel in 0..CHANNELS {
            cell[channel] = mean(sums[channel], halves[channel], inverses[channel]);
        }
    }
}

/// The `CHANNELS` interleaved column sums added over a span.
#[inline(always)]
pub fn sums_over<const CHANNELS: usize>(columns: &[u16], span: &Span) -> [u32; CHANNELS] {
    let mut sums = [0u32; CHANNELS];
    for column in columns[span.start * CHANNELS..span.end * CHANNELS].chunks_exact(CHANNELS) {
        for (sum, value) in sums.iter_mut().zip(column) {
            *sum += *value as u32;
        }
    }
    sums
}

pub fn sum_abs_diff(a: &[u8], b: &[u8], bound: u32) -> u32 {
    let mut sum = 0;
    for (a, b) in a.chunks(BOUND_CHECK_BYTES).zip(b.chunks(BOUND_CHECK_BYTES)) {
        sum += a.iter().zip(b).map(|(x, y)| x.abs_diff(*y) as u32).sum::<u32>();
        if sum > bound {
            break;
        }
    }
    sum
}

/// How often `sum_abs_diff` compares with its bound.
pub const BOUND_CHECK_BYTES: usize = 2048;

pub fn integral(pixels: &[u8], width: usize, split: bool, scratch: &mut [u32], out: &mut [u32]) {
    let stride = width + 1;
    out[..stride].iter_mut().for_each(|value| *value = 0);
    for (row, line) in pixels.chunks_exact(width.max(1)).enumerate() {
        running_row(line, &mut scratch[..stride]);
        let (above, below) = out[row * stride..(row + 2) * stride].split_at_mut(stride);
        for (column, running) in scratch[..stride].iter().enumerate() {
            let at = integral_column(column, stride, split);
            below[at] = above[at].wrapping_add(*running);
        }
    }
}

/// `running[x]` = the sum of the row's pixels before `x`.
pub fn running_row(line: &[u8], running: &mut [u32]) {
    let mut total = 0u32;
    running[0] = 0;
    for (slot, value) in running[1..].iter_mut().zip(line) {
        total += *value as u32;
        *slot = total;
    }
}

pub fn cascade(model: &FaceModel, stumps: &StumpCorners, integral: &[u32], base: usize, accepted: &mut [u8]) {
    // Checked once here, so that the loads below need no check of their own.
    assert!(stumps.fit(model, base, accepted.len(), 1, integral.len()), "cascade reads past the integral image");
    for (offset, passed) in accepted.iter_mut().enumerate() {
        // SAFETY: `fit` says every window here plus every corner is inside
        // `integral`, and that there is a stump's corners per weak classifier.
        *passed = unsafe { passes(model, stumps, integral.as_ptr().add(base + offset)) } as u8;
    }
}

/// Whether the window at `window` passes every stage.
///
/// # Safety
///
/// Every corner of `stumps` from `window` is readable, and `stumps` has a
/// stump per weak classifier of `model` (`StumpCorners::fit`).
#[inline(always)]
unsafe fn passes(model: &FaceModel, stumps: &StumpCorners, window: *const u32) -> bool {
    let mut weak = model.weak.iter().zip(stumps.per_stump());
    for stage in &model.stages {
        let mut sum = 0.0f32;
        for (classifier, corners) in weak.by_ref().take(stage.weak_count) {
            sum += leaf(classifier, lbp_code(corners, window));
        }
        if sum < stage.threshold {
            return false;
        }
    }
    true
}

#[inline(always)]
pub fn leaf(classifier: &Weak, code: u8) -> f32 {
    let set = classifier.subset[code as usize >> 3] >> (code & 7) & 1 != 0;
    classifier.leaves[if set { 0 } else { 1 }]
}

/// The blocks of the 3x3 grid, row by row, that make the LBP code's bits
/// from the highest down: clockwise from the top left (OpenCV's order).
pub const LBP_BLOCKS: [usize; 8] = [0, 1, 2, 5, 8, 7, 6, 3];

/// The feature's LBP code: a bit per outer block whose sum is at least the
/// centre block's. The 16 corners are read once; each row of corners gives
/// three differences, and each block is a difference of two of them.
///
/// # Safety
///
/// Every corner from `window` is readable.
#[inline(always)]
unsafe fn lbp_code(offsets: &[u32], window: *const u32) -> u8 {
    let corners = stump_corners(offsets, window);
    let mut across = [0u32; 12];
    for (row, corners) in corners.iter().enumerate() {
        let [a, b, c, d] = corners.map(|corner| *corner);
        across[row * 3] = a.wrapping_sub(b);
        across[row * 3 + 1] = b.wrapping_sub(c);
        across[row * 3 + 2] = c.wrapping_sub(d);
    }
    let block = |block: usize| across[block].wrapping_sub(across[block + 3]) as i32;
    let centre = block(4);
    LBP_BLOCKS.iter().fold(0, |code, &outer| code << 1 | (block(outer) >= centre) as u8)
}
