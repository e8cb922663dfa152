//! simd128 kernels, sixteen pixels at a time. Pixels that do not fill a
//! vector go through the scalar kernels.

use super::{integral_column, scalar, stump_corners, RowStats, StumpCorners, MAX_PIECES};
use crate::face::model::{FaceModel, Weak};
use crate::grid::MEAN_EPSILON;
use crate::grid::{Divisors, Span, Window, WINDOW_VALUES};
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

/// A chunk adds at most 2 x 255 to a 16-bit pairwise lane, so 128 chunks
/// fit before the lanes are widened to 32 bits.
const CHUNKS_PER_BLOCK: usize = 128;

#[inline(always)]
fn horizontal_sum(value: v128) -> u32 {
    let [a, b, c, d] = to_u32x4(value);
    a + b + c + d
}

/// Adds pairs of bytes into sixteen-bit lanes.
#[inline(always)]
fn add_pairs(total: v128, bytes: v128) -> v128 {
    u16x8_add(total, u16x8_extadd_pairwise_u8x16(bytes))
}

/// Widens sixteen-bit lanes into a 32-bit total.
#[inline(always)]
fn widen_into(total: v128, lanes: v128) -> v128 {
    u32x4_add(total, u32x4_extadd_pairwise_u16x8(lanes))
}

#[inline(always)]
fn abs_diff(a: v128, b: v128) -> v128 {
    v128_or(u8x16_sub_sat(a, b), u8x16_sub_sat(b, a))
}

/// The reds, greens and blues of sixteen RGBA pixels (64 bytes).
#[inline(always)]
fn planar(pixels: &[u8]) -> (v128, v128, v128) {
    // Each vector holds four pixels; group their channels, then gather the
    // sixteen reds, greens and blues into one vector each. The grouping is a
    // swizzle, not a constant shuffle: LLVM would merge a constant shuffle
    // into the two-vector shuffles below, and engines lower such merged
    // shuffles to several instructions where each alone is one.
    let group = load16(&CHANNEL_GROUPS);
    let s0 = u8x16_swizzle(load16(&pixels[0..]), group);
    let s1 = u8x16_swizzle(load16(&pixels[16..]), group);
    let s2 = u8x16_swizzle(load16(&pixels[32..]), group);
    let s3 = u8x16_swizzle(load16(&pixels[48..]), group);
    let rg_low = i32x4_shuffle::<0, 4, 1, 5>(s0, s1);
    let rg_high = i32x4_shuffle::<0, 4, 1, 5>(s2, s3);
    let ba_low = i32x4_shuffle::<2, 6, 3, 7>(s0, s1);
    let ba_high = i32x4_shuffle::<2, 6, 3, 7>(s2, s3);
    (
        i64x2_shuffle::<0, 2>(rg_low, rg_high),
        i64x2_shuffle::<1, 3>(rg_low, rg_high),
        i64x2_shuffle::<0, 2>(ba_low, ba_high),
    )
}

/// Byte order that groups four RGBA pixels by channel: R R R R G G G G ...
const CHANNEL_GROUPS: [u8; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];

/// The luma of `params::luma`, sixteen pixels at a time.
#[inline(always)]
fn luma(red: v128, green: v128, blue: v128) -> v128 {
    u8x16_avgr(u8x16_avgr(red, blue), green)
}

/// Adds sixteen bytes to sixteen 16-bit column sums.
#[inline(always)]
fn add_to_columns(columns: &mut [u16], bytes: v128) {
    let low = u16x8_add(load_u16x8(columns), u16x8_extend_low_u8x16(bytes));
    let high = u16x8_add(load_u16x8(&columns[8..]), u16x8_extend_high_u8x16(bytes));
    store_u16x8(columns, low);
    store_u16x8(&mut columns[8..], high);
}

/// Sixteen 0xFF bytes then sixteen zeros: the 16 bytes from `16 - n` are a
/// mask of the first `n` lanes.
const LANE_MASKS: [u8; 32] = [
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];

/// A mask of lanes `low..high`.
#[inline(always)]
fn lanes_between(low: usize, high: usize) -> v128 {
    v128_andnot(load16(&LANE_MASKS[16 - high..]), load16(&LANE_MASKS[16 - low..]))
}

#[inline(always)]
fn add_rgb(lanes: [v128; 3], channels: [v128; 3]) -> [v128; 3] {
    [add_pairs(lanes[0], channels[0]), add_pairs(lanes[1], channels[1]), add_pairs(lanes[2], channels[2])]
}

/// Widens a piece's 16-bit red, green and blue lanes into its partial sums
/// in `piece_lanes` (see `PIECE_LANES`).
#[inline(always)]
fn widen_rgb(piece_lanes: &mut [u32], piece: usize, lanes: [v128; 3]) {
    for (channel, lane) in lanes.iter().enumerate() {
        let at = &mut piece_lanes[piece * 12 + channel * 4..];
        store_u32x4(at, widen_into(load_u32x4(at), *lane));
    }
}

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
    let chunks = width / 16;
    let done = chunks * 16;
    let threshold_lift = u8x16_splat(127 - PIXEL_CHANGE_THRESHOLD);
    // Each cut's chunk and the mask of the lanes before it, found once.
    let mut cut_chunks = [usize::MAX; MAX_PIECES];
    let mut cut_masks = [zero(); MAX_PIECES];
    for (index, &cut) in cuts.iter().enumerate().take(MAX_PIECES - 1) {
        cut_chunks[index] = cut / 16;
        cut_masks[index] = lanes_between(0, cut % 16);
    }
    let first_piece = super::piece_of(0, cuts);
    // 32-bit totals of diff and luma.
    let (mut diff_total, mut luma_total) = (zero(), zero());
    let mut max_luma = zero();
    let (mut changed, mut changed_x_sum, mut changed_y_sum) = (0u32, 0u32, 0u32);
    let mut tails = RowStats::default();

    let rows = rgba.chunks_exact((width * 4).max(1)).zip(prev.chunks_exact_mut(width.max(1)));
    for (row, (rgba, prev)) in rows.enumerate() {
        let start_row = start_columns && row == 0;
        let mut row_changed = 0u32;
        let mut piece = first_piece;
        let mut rgb_lanes = [zero(); 3];
        let mut block_start = 0;
        while block_start < chunks {
            let block_end = (block_start + CHUNKS_PER_BLOCK).min(chunks);
            let (mut diff_lanes, mut luma_lanes) = (zero(), zero());
            for chunk in block_start..block_end {
                let x = chunk * 16;
                let (red, green, blue) = planar(&rgba[x * 4..]);
                let luma = luma(red, green, blue);
                let previous = load16(&prev[x..]);
                store16(&mut prev[x..], luma);
                if start_row {
                    store_u16x8(&mut column_luma[x..], u16x8_extend_low_u8x16(luma));
                    store_u16x8(&mut column_luma[x + 8..], u16x8_extend_high_u8x16(luma));
                } else {
                    add_to_columns(&mut column_luma[x..], luma);
                }
                let diff = abs_diff(luma, previous);
                diff_lanes = add_pairs(diff_lanes, diff);
                luma_lanes = add_pairs(luma_lanes, luma);
                let mut rest = [red, green, blue];
                // At a cut the lanes before it close the piece.
                while cut_chunks[piece] == chunk {
                    let mask = cut_masks[piece];
                    widen_rgb(piece_lanes, piece, add_rgb(rgb_lanes, rest.map(|channel| v128_and(channel, mask))));
                    rgb_lanes = [zero(); 3];
                    rest = rest.map(|channel| v128_andnot(channel, mask));
                    piece += 1;
                }
                rgb_lanes = add_rgb(rgb_lanes, rest);
                max_luma = u8x16_max(max_luma, luma);
                // diff > 25 exactly when diff + 102 reaches 128, the top bit
                // that the bitmask reads: one saturating add, where an
                // unsigned compare takes four instructions.
                let mask = u8x16_bitmask(u8x16_add_sat(diff, threshold_lift)) as usize;
                if mask != 0 {
                    let count = mask.count_ones();
                    row_changed += count;
                    changed_x_sum += count * x as u32
                        + BIT_POSITION_SUMS[mask & 0xFF] as u32
                        + BIT_POSITION_SUMS[mask >> 8] as u32
                        + 8 * (mask >> 8).count_ones();
                }
            }
            diff_total = widen_into(diff_total, diff_lanes);
            luma_total = widen_into(luma_total, luma_lanes);
            widen_rgb(piece_lanes, piece, rgb_lanes);
            rgb_lanes = [zero(); 3];
            block_start = block_end;
        }
        if done < width {
            if start_row {
                column_luma[done..].iter_mut().for_each(|column| *column = 0);
            }
            let tail = scalar::luma_diff_from(
                done,
                &rgba[done * 4..],
                &mut prev[done..],
                &mut column_luma[done..],
                cuts,
                piece_lanes,
            );
            row_changed += tail.changed;
            tails = tails.merge(tail);
        }
        changed += row_changed;
        changed_y_sum += row_changed * (y0 + row) as u32;
    }

    let vector_part = RowStats {
        diff_sum: horizontal_sum(diff_total),
        luma_sum: horizontal_sum(luma_total),
        max_luma: to_u8x16(max_luma).iter().copied().max().unwrap_or(0),
        changed: changed - tails.changed,
        changed_x_sum,
        changed_y_sum,
    };
    vector_part.merge(tails)
}

pub fn add_row(row: &[u8], columns: &mut [u16]) {
    let length = row.len().min(columns.len());
    let chunks = length / 16;
    for chunk in 0..chunks {
        add_to_columns(&mut columns[chunk * 16..], load16(&row[chunk * 16..]));
    }
    let done = chunks * 16;
    scalar::add_row(&row[done..length], &mut columns[done..length]);
}

pub fn sum_rows(rows: &[u8], columns: &mut [u16]) {
    let width = columns.len();
    if width == 0 {
        return;
    }
    let count = rows.len() / width;
    let chunks = width / 16;
    // One or two rows (frames up to twice the output): row by row measured
    // faster than down each chunk.
    if count <= 2 {
        set_row(&rows[..width], columns);
        if count == 2 {
            add_row(&rows[width..2 * width], columns);
        }
        return;
    }
    for chunk in 0..chunks {
        let x = chunk * 16;
        let (mut low, mut high) = (zero(), zero());
        for row in 0..count {
            let bytes = load16(&rows[row * width + x..]);
            low = u16x8_add(low, u16x8_extend_low_u8x16(bytes));
            high = u16x8_add(high, u16x8_extend_high_u8x16(bytes));
        }
        store_u16x8(&mut columns[x..], low);
        store_u16x8(&mut columns[x + 8..], high);
    }
    let done = chunks * 16;
    if done < width {
        for (index, column) in columns[done..].iter_mut().enumerate() {
            *column = (0..count).map(|row| rows[row * width + done + index] as u16).sum();
        }
    }
}

pub fn set_row(row: &[u8], columns: &mut [u16]) {
    let length = row.len().min(columns.len());
    let chunks = length / 16;
    for chunk in 0..chunks {
        let bytes = load16(&row[chunk * 16..]);
        store_u16x8(&mut columns[chunk * 16..], u16x8_extend_low_u8x16(bytes));
        store_u16x8(&mut columns[chunk * 16 + 8..], u16x8_extend_high_u8x16(bytes));
    }
    let done = chunks * 16;
    scalar::set_row(&row[done..length], &mut columns[done..length]);
}

/// `(sum + half) / count` for four values.
#[inline(always)]
fn four_means(sums: v128, halves: v128, inverses: v128) -> v128 {
    // Numerators stay below 2^24, so the signed conversion (cheaper than
    // the unsigned one on common engines) is exact.
    let numerators = f32x4_convert_i32x4(u32x4_add(sums, halves));
    let quotients = f32x4_floor(f32x4_add(f32x4_mul(numerators, inverses), f32x4_splat(MEAN_EPSILON)));
    // A whole number below 2^23 plus 2^23 has itself as the low mantissa
    // bits: three instructions, where a saturating conversion takes six.
    u32x4_sub(f32x4_add(quotients, f32x4_splat(TWO_TO_23)), u32x4_splat(TWO_TO_23.to_bits()))
}

const TWO_TO_23: f32 = 8_388_608.0;

/// Sixteen 32-bit means narrowed to bytes.
#[inline(always)]
fn to_bytes(a: v128, b: v128, c: v128, d: v128) -> v128 {
    u8x16_narrow_i16x8(i16x8_narrow_i32x4(a, b), i16x8_narrow_i32x4(c, d))
}

/// `(sum + half) / count` for each value, given `half` and `1 / count`.
pub fn means(sums: &[u32], halves: &[u32], inverses: &[f32], out: &mut [u8]) {
    let length = out.len().min(sums.len()).min(halves.len()).min(inverses.len());
    let chunks = length / 16;
    let four = |at: usize| four_means(load_u32x4(&sums[at..]), load_u32x4(&halves[at..]), load_f32x4(&inverses[at..]));
    for chunk in 0..chunks {
        let at = chunk * 16;
        store16(&mut out[at..], to_bytes(four(at), four(at + 4), four(at + 8), four(at + 12)));
    }
    let done = chunks * 16;
    scalar::means(&sums[done..length], &halves[done..length], &inverses[done..length], &mut out[done..length]);
}

pub fn span_means(
    columns: &[u16],
    spans: &[Span],
    windows: &[Window],
    channels: usize,
    divisors: &Divisors,
    scratch: &mut [u32],
    out: &mut [u8],
) {
    let windowed = windows.last().map_or(false, |window| window.start * channels + WINDOW_VALUES <= columns.len());
    if let (true, Some((halves, factors))) = (windowed, &divisors.powers_of_two) {
        return window_means_in_sixteen_bits(columns, windows, channels, halves, factors, out);
    }
    let (halves, inverses) = (&divisors.halves[..], &divisors.inverses[..]);
    match channels {
        1 => grey_span_means(columns, spans, windows, halves, inverses, scratch, out),
        4 => rgba_span_means(columns, spans, windows, halves, inverses, out),
        _ => scalar::span_means_of_any(columns, spans, channels, halves, inverses, out),
    }
}

/// Every cell a power-of-two count of pixels (see `grid::Divisors`): a
/// window's eight lanes of sums become eight means with an add, a multiply
/// and a shift.
fn window_means_in_sixteen_bits(
    columns: &[u16],
    windows: &[Window],
    channels: usize,
    halves: &[u16],
    factors: &[u16],
    out: &mut [u8],
) {
    for window in windows {
        let at = window.first_cell * channels;
        let sums = window_sums(columns, window, channels);
        let means = u16x8_shr(u16x8_mul(u16x8_add(sums, load_u16x8(&halves[at..])), load_u16x8(&factors[at..])), 8);
        let bytes = to_u8x16(u8x16_narrow_i16x8(means, means));
        // Eight bytes at a time, a fixed length (a variable one becomes a
        // bulk memory copy, which engines run as a call): lanes past the
        // window's cells land where the next window writes after.
        if at + 8 <= out.len() {
            out[at..at + 8].copy_from_slice(&bytes[..8]);
        } else {
            for (value, byte) in out[at..].iter_mut().zip(&bytes[..window.cells * channels]) {
                *value = *byte;
            }
        }
    }
}

/// One channel: each cell's sum from the running sums (see
/// `scalar::running_sums`), then sixteen cells averaged at once.
fn grey_span_means(
    columns: &[u16],
    spans: &[Span],
    windows: &[Window],
    halves: &[u32],
    inverses: &[f32],
    scratch: &mut [u32],
    out: &mut [u8],
) {
    let (running, sums) = scratch.split_at_mut(columns.len() + 1);
    let windowed = windows.last().map_or(false, |window| window.start + WINDOW_VALUES <= columns.len());
    if windowed {
        // Eight cells at a time; a cell's two columns fit 16 bits.
        for window in windows {
            let pairs = window_sums(columns, window, 1);
            let at = &mut sums[window.first_cell..];
            store_u32x4(at, u32x4_extend_low_u16x8(pairs));
            store_u32x4(&mut at[4..], u32x4_extend_high_u16x8(pairs));
        }
    } else {
        scalar::running_sums(columns, running);
        for (sum, span) in sums.iter_mut().zip(spans) {
            *sum = running[span.end] - running[span.start];
        }
    }
    // One call for the whole row: its loop runs sixteen values at a time.
    means(&sums[..spans.len()], halves, inverses, out);
}

/// A window's eight lanes of sums (see `grid::Window`): two loads, four
/// swizzles for the first columns and four for the second, one add.
#[inline(always)]
fn window_sums(columns: &[u16], window: &Window, channels: usize) -> v128 {
    let at = window.start * channels;
    let (low, high) = (load_u16x8(&columns[at..]), load_u16x8(&columns[at + 8..]));
    let gather = |indices: &[[u8; 16]; 2]| {
        v128_or(u8x16_swizzle(low, load16(&indices[0])), u8x16_swizzle(high, load16(&indices[1])))
    };
    u16x8_add(gather(&window.first), gather(&window.second))
}

/// The R G B A sums of one span: one column in each half of a vector.
#[inline(always)]
fn rgba_sums(columns: &[u16], span: &Span) -> v128 {
    let mut rest = &columns[span.start * 4..span.end * 4];
    let mut total = zero();
    while rest.len() >= 8 {
        let pair = load_u16x8(rest);
        total = u32x4_add(total, u32x4_add(u32x4_extend_low_u16x8(pair), u32x4_extend_high_u16x8(pair)));
        rest = &rest[8..];
    }
    if rest.len() >= 4 {
        total = u32x4_add(total, u32x4_extend_low_u16x8(load_u16x4_zero(rest)));
    }
    total
}

/// Four channels: each cell's sums are one vector; four cells make sixteen
/// bytes. With windows, two cells come out of each.
fn rgba_span_means(
    columns: &[u16],
    spans: &[Span],
    windows: &[Window],
    halves: &[u32],
    inverses: &[f32],
    out: &mut [u8],
) {
    let windowed = windows.last().map_or(false, |window| window.start * 4 + WINDOW_VALUES <= columns.len());
    if windowed {
        for window in windows {
            let pairs = window_sums(columns, window, 4);
            let at = window.first_cell * 4;
            let first =
                four_means(u32x4_extend_low_u16x8(pairs), load_u32x4(&halves[at..]), load_f32x4(&inverses[at..]));
            // Copies of a fixed length: a variable one becomes a bulk memory
            // copy, which engines run as a call.
            if window.cells == 2 {
                let second = four_means(
                    u32x4_extend_high_u16x8(pairs),
                    load_u32x4(&halves[at + 4..]),
                    load_f32x4(&inverses[at + 4..]),
                );
                out[at..at + 8].copy_from_slice(&to_u8x16(to_bytes(first, second, zero(), zero()))[..8]);
            } else {
                out[at..at + 4].copy_from_slice(&to_u8x16(to_bytes(first, zero(), zero(), zero()))[..4]);
            }
        }
        return;
    }
    let cell = |index: usize| {
        let at = index * 4;
        four_means(rgba_sums(columns, &spans[index]), load_u32x4(&halves[at..]), load_f32x4(&inverses[at..]))
    };
    let batches = spans.len() / 4;
    for batch in 0..batches {
        let first = batch * 4;
        store16(&mut out[first * 4..], to_bytes(cell(first), cell(first + 1), cell(first + 2), cell(first + 3)));
    }
    for index in batches * 4..spans.len() {
        let bytes = to_u8x16(to_bytes(cell(index), zero(), zero(), zero()));
        out[index * 4..index * 4 + 4].copy_from_slice(&bytes[..4]);
    }
}

pub fn sum_abs_diff(a: &[u8], b: &[u8], bound: u32) -> u32 {
    let length = a.len().min(b.len());
    let chunks = length / 16;
    let mut total = zero();
    // A block of 128 chunks is 2048 bytes, where the bound is checked.
    let mut block_start = 0;
    while block_start < chunks {
        let block_end = (block_start + CHUNKS_PER_BLOCK).min(chunks);
        let mut lanes = zero();
        for chunk in block_start..block_end {
            lanes = add_pairs(lanes, abs_diff(load16(&a[chunk * 16..]), load16(&b[chunk * 16..])));
        }
        total = widen_into(total, lanes);
        block_start = block_end;
        let sum = horizontal_sum(total);
        if sum > bound {
            return sum;
        }
    }
    let done = chunks * 16;
    horizontal_sum(total) + scalar::sum_abs_diff(&a[done..length], &b[done..length], u32::MAX)
}

pub fn integral(pixels: &[u8], width: usize, split: bool, scratch: &mut [u32], out: &mut [u32]) {
    let stride = width + 1;
    out[..stride].iter_mut().for_each(|value| *value = 0);
    for (row, line) in pixels.chunks_exact(width.max(1)).enumerate() {
        running_row(line, &mut scratch[..stride]);
        let (above, below) = out[row * stride..(row + 2) * stride].split_at_mut(stride);
        let mut done = 0;
        if split {
            // Eight columns a step: the four even ones go to the first half
            // of the row, the four odd ones to the second.
            let evens = (stride + 1) / 2;
            while done + 8 <= stride {
                let (low, high) = (load_u32x4(&scratch[done..]), load_u32x4(&scratch[done + 4..]));
                let (even, odd) = (done / 2, evens + done / 2);
                store_u32x4(
                    &mut below[even..],
                    u32x4_add(load_u32x4(&above[even..]), i32x4_shuffle::<0, 2, 4, 6>(low, high)),
                );
                store_u32x4(
                    &mut below[odd..],
                    u32x4_add(load_u32x4(&above[odd..]), i32x4_shuffle::<1, 3, 5, 7>(low, high)),
                );
                done += 8;
            }
        } else {
            while done + 4 <= stride {
                store_u32x4(&mut below[done..], u32x4_add(load_u32x4(&above[done..]), load_u32x4(&scratch[done..])));
                done += 4;
            }
        }
        for (column, running) in scratch[..stride].iter().enumerate().skip(done) {
            let at = integral_column(column, stride, split);
            below[at] = above[at].wrapping_add(*running);
        }
    }
}

/// `running[x]` = the sum of the row's pixels before `x`, four at a time:
/// each vector's lanes are summed in two shifted adds, then the carry of the
/// vectors before is added.
fn running_row(line: &[u8], running: &mut [u32]) {
    running[0] = 0;
    let chunks = line.len() / 16;
    let mut carry = zero();
    for chunk in 0..chunks {
        let bytes = load16(&line[chunk * 16..]);
        let (low, high) = (u16x8_extend_low_u8x16(bytes), u16x8_extend_high_u8x16(bytes));
        let quarters = [
            u32x4_extend_low_u16x8(low),
            u32x4_extend_high_u16x8(low),
            u32x4_extend_low_u16x8(high),
            u32x4_extend_high_u16x8(high),
        ];
        for (quarter, values) in quarters.iter().enumerate() {
            let mut sums = u32x4_add(*values, i32x4_shuffle::<4, 0, 1, 2>(*values, zero()));
            sums = u32x4_add(sums, i32x4_shuffle::<4, 5, 0, 1>(sums, zero()));
            sums = u32x4_add(sums, carry);
            carry = i32x4_shuffle::<3, 3, 3, 3>(sums, sums);
            store_u32x4(&mut running[1 + chunk * 16 + quarter * 4..], sums);
        }
    }
    let done = chunks * 16;
    let mut total = to_u32x4(carry)[0];
    for (slot, value) in running[1 + done..].iter_mut().zip(&line[done..]) {
        total += *value as u32;
        *slot = total;
    }
}

pub fn cascade(model: &FaceModel, stumps: &StumpCorners, integral: &[u32], base: usize, accepted: &mut [u8]) {
    // Checked once here, so that the loads below need no check of their own.
    assert!(stumps.fit(model, base, accepted.len(), 4, integral.len()), "cascade reads past the integral image");
    for (group, passed) in accepted.chunks_mut(4).enumerate() {
        // SAFETY: `fit` says every group of four windows here (the last one
        // whole) plus every corner is inside `integral`, and that there is a
        // stump's corners per weak classifier.
        let lanes = to_u32x4(unsafe { four_windows(model, stumps, integral.as_ptr().add(base + group * 4)) });
        for (passed, lane) in passed.iter_mut().zip(lanes) {
            *passed = (lane != 0) as u8;
        }
    }
}

/// The cascade on the four windows from `windows`, one a lane: the same
/// corner of four adjacent windows is four consecutive values, one load.
/// All ones in the lanes that pass every stage; the stages stop once every
/// lane has failed.
///
/// # Safety
///
/// Every corner of `stumps` from each of the four windows is readable, and
/// `stumps` has a stump per weak classifier of `model` (`StumpCorners::fit`).
#[inline(always)]
unsafe fn four_windows(model: &FaceModel, stumps: &StumpCorners, windows: *const u32) -> v128 {
    let mut alive = u32x4_splat(u32::MAX);
    let mut weak = model.weak.iter().zip(stumps.per_stump());
    for stage in &model.stages {
        let mut sum = f32x4_splat(0.0);
        for (classifier, corners) in weak.by_ref().take(stage.weak_count) {
            sum = f32x4_add(sum, leaves(classifier, lbp_codes(corners, windows)));
        }
        alive = v128_and(alive, f32x4_ge(sum, f32x4_splat(stage.threshold)));
        if !v128_any_true(alive) {
            break;
        }
    }
    alive
}

/// The LBP codes of one feature in four windows, one a 32-bit lane. The 16
/// corners are loaded once; each row of corners gives three differences,
/// and each block is a difference of two of them.
///
/// # Safety
///
/// Every corner from each of the four windows is readable.
#[inline(always)]
unsafe fn lbp_codes(offsets: &[u32], windows: *const u32) -> v128 {
    let corners = stump_corners(offsets, windows);
    let mut across = [zero(); 12];
    for (row, corners) in corners.iter().enumerate() {
        let [a, b, c, d] = corners.map(|corner| load_u32x4_at(corner));
        across[row * 3] = u32x4_sub(a, b);
        across[row * 3 + 1] = u32x4_sub(b, c);
        across[row * 3 + 2] = u32x4_sub(c, d);
    }
    let block = |block: usize| u32x4_sub(across[block], across[block + 3]);
    let centre = block(4);
    // Bit by bit from the highest: double the code and add -1 (all ones)
    // where the block is below the centre, then add 255 once, which sets
    // every bit of a block at least the centre. Two adds and one compare a
    // bit, where a mask and an or take a select (three instructions).
    let mut code = zero();
    for &outer in &scalar::LBP_BLOCKS {
        code = u32x4_add(u32x4_add(code, code), i32x4_lt(block(outer), centre));
    }
    u32x4_add(code, u32x4_splat(255))
}

/// Each lane's byte index in a 32-bit lane whose upper bytes swizzle to zero.
const LOW_BYTE_ONLY: u32 = 0x8080_8000;

/// The bit `1 << i` for byte index `i` below 8; zero past it.
const BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];

/// Each lane's leaf for its code: the code's byte of the 32-byte subset by
/// two swizzles (bytes 0 to 15, then 16 to 31, each giving zero for an
/// index past its half), its bit by a third.
#[inline(always)]
fn leaves(classifier: &Weak, code: v128) -> v128 {
    let byte_index = v128_or(u32x4_shr(code, 3), u32x4_splat(LOW_BYTE_ONLY));
    let low = u8x16_swizzle(load16(&classifier.subset), byte_index);
    let high = u8x16_swizzle(load16(&classifier.subset[16..]), u8x16_sub(byte_index, u8x16_splat(16)));
    let bit = u8x16_swizzle(load16(&BITS), v128_or(v128_and(code, u32x4_splat(7)), u32x4_splat(LOW_BYTE_ONLY)));
    let set = i32x4_ne(v128_and(v128_or(low, high), bit), zero());
    v128_bitselect(f32x4_splat(classifier.leaves[0]), f32x4_splat(classifier.leaves[1]), set)
}
