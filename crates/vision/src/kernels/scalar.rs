//! Plain Rust kernels: the fallback for engines without simd128, and the
//! tails of the SIMD kernels.

use super::RowStats;
use crate::grid::Span;
use crate::params::{luma, PIXEL_CHANGE_THRESHOLD};

pub fn luma_diff_row(rgba: &[u8], prev: &mut [u8], x0: u32) -> RowStats {
    let mut stats = RowStats::default();
    for (x, (pixel, previous)) in rgba.chunks_exact(4).zip(prev.iter_mut()).enumerate() {
        let y = luma(pixel[0], pixel[1], pixel[2]);
        let diff = y.abs_diff(*previous);
        *previous = y;
        stats.diff_sum += diff as u32;
        stats.luma_sum += y as u32;
        stats.max_luma = stats.max_luma.max(y);
        if diff > PIXEL_CHANGE_THRESHOLD {
            stats.changed += 1;
            stats.changed_x_sum += x0 + x as u32;
        }
    }
    stats
}

pub fn box_row_add(rgba: &[u8], spans: &[Span], sums: &mut [[u32; 4]]) {
    for (span, sum) in spans.iter().zip(sums.iter_mut()) {
        for pixel in rgba[span.start * 4..span.end * 4].chunks_exact(4) {
            sum[0] += pixel[0] as u32;
            sum[1] += pixel[1] as u32;
            sum[2] += pixel[2] as u32;
            sum[3] += pixel[3] as u32;
        }
    }
}

pub fn sum_abs_diff(a: &[u8], b: &[u8]) -> u32 {
    a.iter().zip(b).map(|(x, y)| x.abs_diff(*y) as u32).sum()
}
