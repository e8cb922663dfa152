//! Plain Rust kernels: the fallback for engines without simd128, and the
//! tails of the SIMD kernels.

use super::RowStats;
use crate::grid::{Span, MEAN_EPSILON};
use crate::params::{luma, PIXEL_CHANGE_THRESHOLD};

pub fn luma_diff_row(rgba: &[u8], prev: &mut [u8], column_luma: &mut [u16], cuts: &[usize]) -> RowStats {
    luma_diff_from(0, rgba, prev, column_luma, cuts)
}

/// The fused pass over the pixels from `x0` to the end of the row; the
/// slices start at `x0`, the cuts are positions in the whole row.
pub fn luma_diff_from(x0: usize, rgba: &[u8], prev: &mut [u8], column_luma: &mut [u16], cuts: &[usize]) -> RowStats {
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
        for (sum, channel) in stats.rgb_sums[piece].iter_mut().zip(pixel) {
            *sum += *channel as u32;
        }
    }
    stats
}

pub fn add_row(row: &[u8], columns: &mut [u16]) {
    for (column, value) in columns.iter_mut().zip(row) {
        *column += *value as u16;
    }
}

pub fn set_row(row: &[u8], columns: &mut [u16]) {
    for (column, value) in columns.iter_mut().zip(row) {
        *column = *value as u16;
    }
}

pub fn means(sums: &[u32], halves: &[u32], inverses: &[f32], out: &mut [u8]) {
    for (((value, sum), half), inverse) in out.iter_mut().zip(sums).zip(halves).zip(inverses) {
        *value = (((sum + half) as f32) * inverse + MEAN_EPSILON) as u8;
    }
}

pub fn span_sums(columns: &[u16], spans: &[Span], channels: usize, sums: &mut [u32]) {
    // The channel count is fixed per grid; knowing it at compile time lets
    // the inner loop unroll.
    match channels {
        1 => span_sums_of::<1>(columns, spans, sums),
        4 => span_sums_of::<4>(columns, spans, sums),
        _ => {
            for (span, cell) in spans.iter().zip(sums.chunks_exact_mut(channels)) {
                for (channel, sum) in cell.iter_mut().enumerate() {
                    *sum = (span.start..span.end).map(|x| columns[x * channels + channel] as u32).sum();
                }
            }
        }
    }
}

fn span_sums_of<const CHANNELS: usize>(columns: &[u16], spans: &[Span], sums: &mut [u32]) {
    for (span, cell) in spans.iter().zip(sums.chunks_exact_mut(CHANNELS)) {
        let mut totals = [0u32; CHANNELS];
        for column in columns[span.start * CHANNELS..span.end * CHANNELS].chunks_exact(CHANNELS) {
            for (total, value) in totals.iter_mut().zip(column) {
                *total += *value as u32;
            }
        }
        cell.copy_from_slice(&totals);
    }
}

pub fn sum_abs_diff(a: &[u8], b: &[u8]) -> u32 {
    a.iter().zip(b).map(|(x, y)| x.abs_diff(*y) as u32).sum()
}
