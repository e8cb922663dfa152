//! simd128 kernels: sixteen pixels at a time for the luma pass, four pixels
//! at a time for the box filter. Lanes that do not fill a vector go through
//! the scalar kernels.

use super::{scalar, RowStats};
use crate::grid::Span;
use crate::params::PIXEL_CHANGE_THRESHOLD;
use crate::simd::*;

/// Sum of the bit positions set in each byte value, for the x sums of the
/// changed pixels of a 16-pixel chunk.
const BIT_POSITION_SUMS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut value = 0;
    while value < 256 {
        let mut bit = 0;
        while bit < 8 {
            if value & (1 << bit) != 0 {
                table[value] += bit as u8;
            }
            bit += 1;
        }
        value += 1;
    }
    table
};

#[inline(always)]
fn horizontal_sum(value: v128) -> u32 {
    let [a, b, c, d] = to_u32x4(value);
    a + b + c + d
}

/// Sums the sixteen bytes into the four 32-bit lanes of `total`.
#[inline(always)]
fn add_bytes(total: v128, bytes: v128) -> v128 {
    u32x4_add(total, u32x4_extadd_pairwise_u16x8(u16x8_extadd_pairwise_u8x16(bytes)))
}

#[inline(always)]
fn abs_diff(a: v128, b: v128) -> v128 {
    v128_or(u8x16_sub_sat(a, b), u8x16_sub_sat(b, a))
}

/// Luma of sixteen RGBA pixels (64 bytes).
#[inline(always)]
fn luma16(pixels: &[u8]) -> v128 {
    // Each vector holds four pixels; group their channels, then gather the
    // sixteen reds, greens and blues into one vector each.
    let planar = |v: v128| u8x16_shuffle::<0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15>(v, v);
    let s0 = planar(load16(&pixels[0..]));
    let s1 = planar(load16(&pixels[16..]));
    let s2 = planar(load16(&pixels[32..]));
    let s3 = planar(load16(&pixels[48..]));
    let rg_low = i32x4_shuffle::<0, 4, 1, 5>(s0, s1);
    let rg_high = i32x4_shuffle::<0, 4, 1, 5>(s2, s3);
    let ba_low = i32x4_shuffle::<2, 6, 3, 7>(s0, s1);
    let ba_high = i32x4_shuffle::<2, 6, 3, 7>(s2, s3);
    let red = i64x2_shuffle::<0, 2>(rg_low, rg_high);
    let green = i64x2_shuffle::<1, 3>(rg_low, rg_high);
    let blue = i64x2_shuffle::<0, 2>(ba_low, ba_high);

    // 77 R + 150 G + 29 B + 128 stays below 65,536, so 16-bit lanes hold it.
    let (k_red, k_green, k_blue) = (u8x16_splat(77), u8x16_splat(150), u8x16_splat(29));
    let rounding = u16x8_splat(128);
    let low = u16x8_add(
        u16x8_add(u16x8_extmul_low_u8x16(red, k_red), u16x8_extmul_low_u8x16(green, k_green)),
        u16x8_add(u16x8_extmul_low_u8x16(blue, k_blue), rounding),
    );
    let high = u16x8_add(
        u16x8_add(u16x8_extmul_high_u8x16(red, k_red), u16x8_extmul_high_u8x16(green, k_green)),
        u16x8_add(u16x8_extmul_high_u8x16(blue, k_blue), rounding),
    );
    u8x16_narrow_i16x8(u16x8_shr(low, 8), u16x8_shr(high, 8))
}

pub fn luma_diff_row(rgba: &[u8], prev: &mut [u8], x0: u32) -> RowStats {
    let width = prev.len();
    let chunks = width / 16;
    let threshold = u8x16_splat(PIXEL_CHANGE_THRESHOLD);
    let (mut diff_total, mut luma_total, mut max_luma) = (zero(), zero(), zero());
    let (mut changed, mut changed_x_sum) = (0u32, 0u32);

    for chunk in 0..chunks {
        let luma = luma16(&rgba[chunk * 64..]);
        let previous = load16(&prev[chunk * 16..]);
        store16(&mut prev[chunk * 16..], luma);
        let diff = abs_diff(luma, previous);
        diff_total = add_bytes(diff_total, diff);
        luma_total = add_bytes(luma_total, luma);
        max_luma = u8x16_max(max_luma, luma);
        let mask = u8x16_bitmask(u8x16_gt(diff, threshold)) as usize;
        if mask != 0 {
            let count = mask.count_ones();
            let high_count = (mask >> 8).count_ones();
            changed += count;
            changed_x_sum += count * (x0 + (chunk * 16) as u32)
                + BIT_POSITION_SUMS[mask & 0xFF] as u32
                + BIT_POSITION_SUMS[mask >> 8] as u32
                + 8 * high_count;
        }
    }

    let done = chunks * 16;
    let vector_part = RowStats {
        diff_sum: horizontal_sum(diff_total),
        luma_sum: horizontal_sum(luma_total),
        max_luma: to_u8x16(max_luma).iter().copied().max().unwrap_or(0),
        changed,
        changed_x_sum,
    };
    let tail = scalar::luma_diff_row(&rgba[done * 4..width * 4], &mut prev[done..], x0 + done as u32);
    vector_part.merge(tail)
}

pub fn box_row_add(rgba: &[u8], spans: &[Span], sums: &mut [[u32; 4]]) {
    // 16-bit lanes hold R G B A R G B A; each four-pixel step adds at most
    // 510 to a lane, so they are widened to 32 bits every 128 steps. The
    // analyser's spans are at most 41 pixels and never reach that.
    const STEPS_PER_FLUSH: usize = 128;
    for (span, sum) in spans.iter().zip(sums.iter_mut()) {
        let mut rest = &rgba[span.start * 4..span.end * 4];
        let mut channels = zero();
        let mut lanes = zero();
        let mut steps = 0;
        while rest.len() >= 16 {
            let pixels = load16(rest);
            lanes = u16x8_add(lanes, u16x8_add(u16x8_extend_low_u8x16(pixels), u16x8_extend_high_u8x16(pixels)));
            rest = &rest[16..];
            steps += 1;
            if steps == STEPS_PER_FLUSH {
                channels = u32x4_add(channels, widen_halves(lanes));
                lanes = zero();
                steps = 0;
            }
        }
        if rest.len() >= 8 {
            lanes = u16x8_add(lanes, u16x8_extend_low_u8x16(load8_zero(rest)));
            rest = &rest[8..];
        }
        if rest.len() >= 4 {
            lanes = u16x8_add(lanes, u16x8_extend_low_u8x16(load4_zero(rest)));
        }
        let channels = to_u32x4(u32x4_add(channels, widen_halves(lanes)));
        for (total, channel) in sum.iter_mut().zip(channels) {
            *total += channel;
        }
    }
}

/// Adds the two four-lane halves of sixteen-bit lanes into 32-bit lanes.
#[inline(always)]
fn widen_halves(lanes: v128) -> v128 {
    u32x4_add(u32x4_extend_low_u16x8(lanes), u32x4_extend_high_u16x8(lanes))
}

pub fn sum_abs_diff(a: &[u8], b: &[u8]) -> u32 {
    let length = a.len().min(b.len());
    let chunks = length / 16;
    let mut total = zero();
    for chunk in 0..chunks {
        total = add_bytes(total, abs_diff(load16(&a[chunk * 16..]), load16(&b[chunk * 16..])));
    }
    let done = chunks * 16;
    horizontal_sum(total) + scalar::sum_abs_diff(&a[done..length], &b[done..length])
}
