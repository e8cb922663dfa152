//! Every kernel on both paths, on odd sizes, against a plain reference.

use super::*;
use crate::face::model::{Feature, Stage, Weak};
use crate::params::{luma, PIXEL_CHANGE_THRESHOLD};
use crate::testing::Rng;

const VARIANTS: [&Kernels; 2] = [&SCALAR, &SIMD];
const WIDTHS: [usize; 12] = [1, 2, 3, 15, 16, 17, 31, 33, 63, 160, 161, 640];

type PieceSums = [[u32; 3]; MAX_PIECES];

fn reference_rows(rgba: &[u8], prev: &[u8], width: usize, cuts: &[usize], y0: usize) -> (RowStats, PieceSums, Vec<u8>) {
    let mut stats = RowStats::default();
    let mut rgb_sums = [[0u32; 3]; MAX_PIECES];
    let mut lumas = Vec::new();
    for (i, pixel) in rgba.chunks_exact(4).enumerate() {
        let (x, y) = (i % width, y0 + i / width);
        let luma = luma(pixel[0], pixel[1], pixel[2]);
        let diff = (luma as i32 - prev[i] as i32).unsigned_abs();
        stats.diff_sum += diff;
        stats.luma_sum += luma as u32;
        stats.max_luma = stats.max_luma.max(luma);
        if diff > PIXEL_CHANGE_THRESHOLD as u32 {
            stats.changed += 1;
            stats.changed_x_sum += x as u32;
            stats.changed_y_sum += y as u32;
        }
        let piece = cuts.iter().filter(|&&cut| cut <= x).count();
        for (sum, &value) in rgb_sums[piece].iter_mut().zip(pixel) {
            *sum += value as u32;
        }
        lumas.push(luma);
    }
    (stats, rgb_sums, lumas)
}

#[test]
fn luma_diff_rows_matches_the_reference() {
    let mut rng = Rng::new(1);
    for kernels in VARIANTS {
        for width in WIDTHS.iter().copied().chain([2048, 4096]) {
            for round in 0..8 {
                let rows = [1, 2, 3, 7][round % 4];
                let y0 = round * 11;
                let mut rgba = vec![0u8; width * rows * 4];
                let mut prev = vec![0u8; width * rows];
                let mut columns: Vec<u16> = (0..width).map(|x| (x * 31 % 9000) as u16).collect();
                rng.fill(&mut rgba);
                rng.fill(&mut prev);
                if round == 1 {
                    // Extremes: white on black, so every sum is at its largest.
                    rgba.iter_mut().for_each(|b| *b = 255);
                    prev.iter_mut().for_each(|b| *b = 0);
                }
                // Cuts anywhere, including inside one chunk and at its edges.
                let cuts: Vec<usize> = match round % 4 {
                    0 => crate::grid::area_pieces(width).iter().skip(1).map(|p| p.span.start).collect(),
                    1 => vec![],
                    2 => vec![width / 2],
                    _ => vec![(width / 5).min(width), (width / 5 + 3).min(width)],
                };
                let (expected, expected_rgb, lumas) = reference_rows(&rgba, &prev, width, &cuts, y0);
                let mut expected_columns = columns.clone();
                for (i, luma) in lumas.iter().enumerate() {
                    expected_columns[i % width] += *luma as u16;
                }
                // Every other round starts the column sums instead of adding.
                let start_columns = round % 2 == 1;
                if start_columns {
                    expected_columns = lumas[..width].iter().map(|luma| *luma as u16).collect();
                    for (i, luma) in lumas.iter().enumerate().skip(width) {
                        expected_columns[i % width] += *luma as u16;
                    }
                }
                let mut piece_lanes = [7u32; PIECE_LANES];
                let stats = (kernels.luma_diff_rows)(
                    &rgba,
                    &mut prev,
                    &mut columns,
                    &cuts,
                    y0,
                    start_columns,
                    &mut piece_lanes,
                );
                let mut rgb_sums = [[0u32; 3]; MAX_PIECES];
                for (piece, sums) in rgb_sums.iter_mut().enumerate() {
                    for (channel, sum) in sums.iter_mut().enumerate() {
                        let at = piece * 12 + channel * 4;
                        *sum = piece_lanes[at..at + 4].iter().map(|lane| lane - 7).sum();
                    }
                }
                let label = format!("{} width {} rows {} cuts {:?}", kernels.name, width, rows, cuts);
                assert_eq!(stats, expected, "{}", label);
                assert_eq!(rgb_sums, expected_rgb, "{}: piece sums", label);
                assert_eq!(prev, lumas, "{}: previous luma replaced", label);
                assert_eq!(columns, expected_columns, "{}: column sums", label);
            }
        }
    }
}

#[test]
fn luma_of_grey_is_the_grey() {
    for kernels in VARIANTS {
        let rgba: Vec<u8> = (0..=255u8).flat_map(|v| [v, v, v, 255]).collect();
        let mut prev = vec![0u8; 256];
        let mut columns = vec![0u16; 256];
        (kernels.luma_diff_rows)(&rgba, &mut prev, &mut columns, &[100], 0, false, &mut [0; PIECE_LANES]);
        assert_eq!(prev, (0..=255u8).collect::<Vec<_>>(), "{}", kernels.name);
    }
}

#[test]
fn add_row_matches_the_reference() {
    let mut rng = Rng::new(2);
    for kernels in VARIANTS {
        for width in WIDTHS.iter().copied().chain([99, 100, 101, 4096 * 4]) {
            let mut row = vec![0u8; width];
            rng.fill(&mut row);
            let mut columns: Vec<u16> = (0..width).map(|x| (x * 7 % 60000) as u16).collect();
            let expected: Vec<u16> = columns.iter().zip(&row).map(|(c, v)| c + *v as u16).collect();
            (kernels.add_row)(&row, &mut columns);
            assert_eq!(columns, expected, "{} width {}", kernels.name, width);
        }
    }
}

#[test]
fn sum_rows_matches_the_reference() {
    let mut rng = Rng::new(7);
    for kernels in VARIANTS {
        for width in WIDTHS {
            for count in [1, 2, 3, 7, 41] {
                let mut rows = vec![0u8; width * count];
                rng.fill(&mut rows);
                let mut columns = vec![999u16; width];
                let expected: Vec<u16> =
                    (0..width).map(|x| (0..count).map(|row| rows[row * width + x] as u16).sum()).collect();
                (kernels.sum_rows)(&rows, &mut columns);
                assert_eq!(columns, expected, "{} width {} rows {}", kernels.name, width, count);
            }
        }
    }
}

#[test]
fn set_row_widens_the_row() {
    let mut rng = Rng::new(4);
    for kernels in VARIANTS {
        for width in WIDTHS {
            let mut row = vec![0u8; width];
            rng.fill(&mut row);
            let mut columns = vec![999u16; width];
            (kernels.set_row)(&row, &mut columns);
            assert_eq!(columns, row.iter().map(|v| *v as u16).collect::<Vec<_>>(), "{} width {}", kernels.name, width);
        }
    }
}

#[test]
fn span_means_match_integer_rounding() {
    let mut rng = Rng::new(6);
    for kernels in VARIANTS {
        for channels in [1, 2, 4] {
            let sizes = [(1, 1), (3, 100), (17, 9), (160, 100), (161, 75), (640, 100), (4096, 100), (41, 1)];
            for (case, (width, target)) in sizes.iter().copied().chain(sizes).enumerate() {
                // Powers of two (the 16-bit path, when the windows have room)
                // and others; odd counts get no room; up to the tallest span.
                let rows = [2, 4, 1, 3, 8, 41, 16, 6, 32][case % 9];
                // Half the time columns of garbage past the last, which no
                // span covers and no mean may include, and which give the
                // windows room to read.
                let room = if rows % 2 == 0 { 16 } else { 0 };
                let columns: Vec<u16> =
                    (0..(width + room) * channels).map(|_| (rng.next_u64() % (255 * rows as u64 + 1)) as u16).collect();
                let spans = crate::grid::spans(width, target);
                let counts: Vec<u32> =
                    spans.iter().flat_map(|span| vec![(span.len() * rows) as u32; channels]).collect();
                let divisors =
                    crate::grid::Divisors::of(&counts.iter().map(|&count| count as usize).collect::<Vec<_>>());
                let mut out = vec![0u8; target * channels];
                let mut scratch = vec![u32::MAX; (width + room) * channels + 1 + target * channels + 16];
                // Windows only when the columns have room for them to read.
                let windows = if room > 0 { crate::grid::windows(&spans, channels) } else { Vec::new() };
                (kernels.span_means)(&columns, &spans, &windows, channels, &divisors, &mut scratch, &mut out);
                let mut expected = Vec::new();
                for (index, span) in spans.iter().enumerate() {
                    for channel in 0..channels {
                        let sum: u32 = (span.start..span.end).map(|x| columns[x * channels + channel] as u32).sum();
                        let count = counts[index * channels + channel];
                        expected.push(((sum + count / 2) / count) as u8);
                    }
                }
                let label = format!("{} {} channels {}->{} x {} rows", kernels.name, channels, width, target, rows);
                assert_eq!(out, expected, "{}", label);
            }
        }
    }
}

#[test]
fn sum_abs_diff_matches_the_reference() {
    let mut rng = Rng::new(3);
    for kernels in VARIANTS {
        for length in [0, 1, 15, 16, 17, 255, 2048, 2049, 10_000] {
            let mut a = vec![0u8; length];
            let mut b = vec![0u8; length];
            rng.fill(&mut a);
            rng.fill(&mut b);
            let expected: u32 = a.iter().zip(&b).map(|(x, y)| (*x as i32 - *y as i32).unsigned_abs()).sum();
            assert_eq!((kernels.sum_abs_diff)(&a, &b, u32::MAX), expected, "{} length {}", kernels.name, length);
            assert_eq!(
                (kernels.sum_abs_diff)(&a, &b, expected),
                expected,
                "{} length {}: at the bound",
                kernels.name,
                length
            );
        }
        let (white, black) = (vec![255u8; 10_000], vec![0u8; 10_000]);
        assert_eq!((kernels.sum_abs_diff)(&white, &black, u32::MAX), 2_550_000, "{}", kernels.name);
        // Past the bound it may stop early, with a sum still past the bound.
        let stopped = (kernels.sum_abs_diff)(&white, &black, 1000);
        assert!(stopped > 1000 && stopped < 2_550_000, "{} stopped at {}", kernels.name, stopped);
    }
}

/// The integral image straight from its definition, in the layout of
/// `integral_column`.
fn reference_integral(pixels: &[u8], width: usize, height: usize, split: bool) -> Vec<u32> {
    let stride = width + 1;
    let mut out = vec![0u32; stride * (height + 1)];
    for y in 0..=height {
        for x in 0..=width {
            let sum: u32 = (0..y)
                .flat_map(|row| (0..x).map(move |column| (row, column)))
                .map(|(row, column)| pixels[row * width + column] as u32)
                .sum();
            out[y * stride + integral_column(x, stride, split)] = sum;
        }
    }
    out
}

#[test]
fn integral_matches_the_reference() {
    let mut rng = Rng::new(8);
    for kernels in VARIANTS {
        for width in [1, 2, 3, 6, 7, 8, 9, 15, 16, 17, 33, 161] {
            for height in [1, 2, 5] {
                for split in [false, true] {
                    let mut pixels = vec![0u8; width * height];
                    rng.fill(&mut pixels);
                    let mut scratch = vec![u32::MAX; width + 5];
                    let mut out = vec![u32::MAX; (width + 1) * (height + 1)];
                    (kernels.integral)(&pixels, width, split, &mut scratch, &mut out);
                    let label = format!("{} {}x{} split {}", kernels.name, width, height, split);
                    assert_eq!(out, reference_integral(&pixels, width, height, split), "{}", label);
                }
            }
        }
        // The largest sums wrap nowhere at 4096 x 4 white.
        let (width, height) = (4096, 4);
        let mut out = vec![0u32; (width + 1) * (height + 1)];
        (kernels.integral)(&vec![255; width * height], width, false, &mut vec![0; width + 5], &mut out);
        assert_eq!(out[out.len() - 1], 255 * 4096 * 4, "{}", kernels.name);
    }
}

/// A random cascade on a 12x10 window: three stages whose thresholds let
/// some windows of a random image through and stop others.
fn random_model(rng: &mut Rng) -> FaceModel {
    let (window_width, window_height) = (12, 10);
    let features = (0..9)
        .map(|_| {
            let (width, height) = (1 + rng.byte() % 4, 1 + rng.byte() % 3);
            let x = rng.byte() % (window_width as u8 - 3 * width + 1);
            let y = rng.byte() % (window_height as u8 - 3 * height + 1);
            Feature { x, y, width, height }
        })
        .collect();
    let stages = vec![
        Stage { weak_count: 3, threshold: -0.4 },
        Stage { weak_count: 2, threshold: -0.2 },
        Stage { weak_count: 4, threshold: 0.0 },
    ];
    let weak = (0..9)
        .map(|index| {
            let mut subset = [0u8; 32];
            rng.fill(&mut subset);
            let leaf = |rng: &mut Rng| rng.byte() as f32 / 128.0 - 1.0;
            Weak { feature: index, subset, leaves: [leaf(rng), leaf(rng)] }
        })
        .collect();
    FaceModel { window_width, window_height, features, stages, weak }
}

/// The cascade on the window at `(x, y)`, from the pixels.
fn reference_passes(model: &FaceModel, pixels: &[u8], width: usize, x: usize, y: usize) -> bool {
    let mut weak = model.weak.iter();
    for stage in &model.stages {
        let mut sum = 0.0f32;
        for classifier in weak.by_ref().take(stage.weak_count) {
            let feature = model.features[classifier.feature];
            let (w, h) = (feature.width as usize, feature.height as usize);
            let block = |row: usize, column: usize| -> u32 {
                let (left, top) = (x + feature.x as usize + column * w, y + feature.y as usize + row * h);
                (top..top + h).flat_map(|py| (left..left + w).map(move |px| pixels[py * width + px] as u32)).sum()
            };
            let outer = [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0)];
            let code = outer
                .iter()
                .fold(0usize, |code, &(row, column)| code << 1 | (block(row, column) >= block(1, 1)) as usize);
            let set = classifier.subset[code / 8] & (1 << (code % 8)) != 0;
            sum += classifier.leaves[if set { 0 } else { 1 }];
        }
        if sum < stage.threshold {
            return false;
        }
    }
    true
}

#[test]
fn cascade_matches_the_reference() {
    let mut rng = Rng::new(9);
    let mut outcomes = [0usize; 2];
    for round in 0..12 {
        let model = random_model(&mut rng);
        let (width, height) = ([12, 13, 17, 19, 30, 41][round % 6], [10, 11, 16][round % 3]);
        let mut pixels = vec![0u8; width * height];
        rng.fill(&mut pixels);
        for step in [1, 2] {
            let stride = width + 1;
            let stumps = StumpCorners::new(&model, stride, |dx| integral_column(dx, stride, step == 2));
            let mut integral = vec![0u32; stride * (height + 1) + 4];
            (SCALAR.integral)(
                &pixels,
                width,
                step == 2,
                &mut vec![0; stride + 4],
                &mut integral[..stride * (height + 1)],
            );
            let columns = (width - model.window_width) / step + 1;
            for y in (0..=height - model.window_height).step_by(step) {
                let expected: Vec<u8> = (0..columns)
                    .map(|column| reference_passes(&model, &pixels, width, column * step, y) as u8)
                    .collect();
                for &passed in &expected {
                    outcomes[passed as usize] += 1;
                }
                for kernels in VARIANTS {
                    let mut accepted = vec![7u8; columns];
                    (kernels.cascade)(&model, &stumps, &integral, y * stride, &mut accepted);
                    assert_eq!(accepted, expected, "{} {}x{} step {} row {}", kernels.name, width, height, step, y);
                }
            }
        }
    }
    // The random cascades both pass and stop windows.
    assert!(outcomes[0] > 20 && outcomes[1] > 20, "{:?}", outcomes);
}
