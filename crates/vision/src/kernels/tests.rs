//! Every kernel on both paths, on odd sizes, against a plain reference.

use super::*;
use crate::grid::spans;
use crate::params::{luma, PIXEL_CHANGE_THRESHOLD};
use crate::testing::Rng;

const VARIANTS: [&Kernels; 2] = [&SCALAR, &SIMD];
const WIDTHS: [usize; 12] = [1, 2, 3, 15, 16, 17, 31, 33, 63, 160, 161, 640];

fn reference_row(rgba: &[u8], prev: &[u8], x0: u32) -> (RowStats, Vec<u8>) {
    let mut stats = RowStats::default();
    let mut lumas = Vec::new();
    for (x, pixel) in rgba.chunks_exact(4).enumerate() {
        let y = luma(pixel[0], pixel[1], pixel[2]);
        let diff = (y as i32 - prev[x] as i32).unsigned_abs();
        stats.diff_sum += diff;
        stats.luma_sum += y as u32;
        stats.max_luma = stats.max_luma.max(y);
        if diff > PIXEL_CHANGE_THRESHOLD as u32 {
            stats.changed += 1;
            stats.changed_x_sum += x0 + x as u32;
        }
        lumas.push(y);
    }
    (stats, lumas)
}

#[test]
fn luma_diff_row_matches_the_reference() {
    let mut rng = Rng::new(1);
    for kernels in VARIANTS {
        for width in WIDTHS {
            for round in 0..8 {
                let mut rgba = vec![0u8; width * 4];
                let mut prev = vec![0u8; width];
                rng.fill(&mut rgba);
                rng.fill(&mut prev);
                if round == 1 {
                    // Extremes: white on black, so every sum is at its largest.
                    rgba.iter_mut().for_each(|b| *b = 255);
                    prev.iter_mut().for_each(|b| *b = 0);
                }
                let x0 = (round * 37) as u32;
                let (expected, lumas) = reference_row(&rgba, &prev, x0);
                let stats = (kernels.luma_diff_row)(&rgba, &mut prev, x0);
                assert_eq!(stats, expected, "{} width {}", kernels.name, width);
                assert_eq!(prev, lumas, "{} width {}: previous luma replaced", kernels.name, width);
            }
        }
    }
}

#[test]
fn luma_of_grey_is_the_grey() {
    for kernels in VARIANTS {
        let rgba: Vec<u8> = (0..=255u8).flat_map(|v| [v, v, v, 255]).collect();
        let mut prev = vec![0u8; 256];
        (kernels.luma_diff_row)(&rgba, &mut prev, 0);
        assert_eq!(prev, (0..=255u8).collect::<Vec<_>>(), "{}", kernels.name);
    }
}

#[test]
fn box_row_add_matches_the_reference() {
    let mut rng = Rng::new(2);
    for kernels in VARIANTS {
        for width in WIDTHS.iter().copied().chain([99, 100, 101, 4096]) {
            for target in [1, 7, 75, 100] {
                let mut rgba = vec![0u8; width * 4];
                rng.fill(&mut rgba);
                let spans = spans(width, target);
                let mut sums = vec![[1u32, 2, 3, 4]; target];
                (kernels.box_row_add)(&rgba, &spans, &mut sums);
                for (span, sum) in spans.iter().zip(&sums) {
                    let mut expected = [1u32, 2, 3, 4];
                    for pixel in rgba[span.start * 4..span.end * 4].chunks_exact(4) {
                        for channel in 0..4 {
                            expected[channel] += pixel[channel] as u32;
                        }
                    }
                    assert_eq!(*sum, expected, "{} width {} target {}", kernels.name, width, target);
                }
            }
        }
    }
}

#[test]
fn box_row_add_holds_the_widest_span_of_white() {
    for kernels in VARIANTS {
        let rgba = vec![255u8; 4096 * 4];
        let spans = spans(4096, 100);
        let mut sums = vec![[0u32; 4]; 100];
        (kernels.box_row_add)(&rgba, &spans, &mut sums);
        for (span, sum) in spans.iter().zip(&sums) {
            assert_eq!(*sum, [255 * span.len() as u32; 4], "{}", kernels.name);
        }
    }
}

#[test]
fn sum_abs_diff_matches_the_reference() {
    let mut rng = Rng::new(3);
    for kernels in VARIANTS {
        for length in [0, 1, 15, 16, 17, 255, 10_000] {
            let mut a = vec![0u8; length];
            let mut b = vec![0u8; length];
            rng.fill(&mut a);
            rng.fill(&mut b);
            let expected: u32 = a.iter().zip(&b).map(|(x, y)| (*x as i32 - *y as i32).unsigned_abs()).sum();
            assert_eq!((kernels.sum_abs_diff)(&a, &b), expected, "{} length {}", kernels.name, length);
        }
        let (white, black) = (vec![255u8; 10_000], vec![0u8; 10_000]);
        assert_eq!((kernels.sum_abs_diff)(&white, &black), 2_550_000, "{}", kernels.name);
    }
}
