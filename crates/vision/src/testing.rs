//! Test helpers: a seeded generator, frame makers, and a reference
//! implementation written straight from docs/vision.md, pixel by pixel, with
//! none of the kernels' tricks.

use crate::grid::spans;
use crate::params::*;

/// xorshift64*: deterministic and dependency-free.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn byte(&mut self) -> u8 {
        (self.next_u64() >> 56) as u8
    }

    pub fn fill(&mut self, bytes: &mut [u8]) {
        bytes.iter_mut().for_each(|byte| *byte = self.byte());
    }
}

/// A frame of one flat colour.
pub fn flat(width: usize, height: usize, rgb: [u8; 3]) -> Vec<u8> {
    let mut frame = Vec::with_capacity(width * height * 4);
    for _ in 0..width * height {
        frame.extend_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
    }
    frame
}

/// A textured scene with a bright square whose top-left corner is at (x, y).
pub fn scene(width: usize, height: usize, x: usize, y: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut frame = Vec::with_capacity(width * height * 4);
    for row in 0..height {
        for column in 0..width {
            let texture = ((column * 7 + row * 3) % 64) as u8 + 60;
            let inside = column >= x && column < x + width / 4 + 1 && row >= y && row < y + height / 4 + 1;
            let base = if inside { [230, 200, 170] } else { [texture, texture / 2 + 40, 90] };
            let noise = rng.byte() % 2;
            frame.extend_from_slice(&[base[0].saturating_add(noise), base[1], base[2], 255]);
        }
    }
    frame
}

/// What the reference computes for one frame.
#[derive(Debug)]
pub struct ReferenceFrame {
    pub luma: Vec<u8>,
    pub diff_sum: u64,
    pub luma_sum: u64,
    pub max_luma: u8,
    pub changed: u64,
    pub changed_x_sum: u64,
    pub changed_y_sum: u64,
    pub thumbnail: Vec<u8>,
    pub area_means: [[u8; 3]; 9],
}

pub fn reference_luma(rgba: &[u8]) -> Vec<u8> {
    rgba.chunks_exact(4).map(|p| luma(p[0], p[1], p[2])).collect()
}

/// Per cell channel sums and pixel count of a box filter to `cols x rows`,
/// over `channels` interleaved bytes per pixel.
pub fn reference_box(
    values: &[u8],
    channels: usize,
    width: usize,
    height: usize,
    cols: usize,
    rows: usize,
) -> Vec<(Vec<u64>, u64)> {
    let (col_spans, row_spans) = (spans(width, cols), spans(height, rows));
    let mut cells = Vec::new();
    for rows in &row_spans {
        for cols in &col_spans {
            let mut sums = vec![0u64; channels];
            for y in rows.start..rows.end {
                for x in cols.start..cols.end {
                    for (channel, sum) in sums.iter_mut().enumerate() {
                        *sum += values[(y * width + x) * channels + channel] as u64;
                    }
                }
            }
            cells.push((sums, (rows.len() * cols.len()) as u64));
        }
    }
    cells
}

pub fn rounded_mean(sum: u64, count: u64) -> u8 {
    ((sum + count / 2) / count) as u8
}

pub fn reference_frame(rgba: &[u8], width: usize, height: usize, previous: &[u8]) -> ReferenceFrame {
    let luma = reference_luma(rgba);
    let mut frame = ReferenceFrame {
        diff_sum: 0,
        luma_sum: 0,
        max_luma: 0,
        changed: 0,
        changed_x_sum: 0,
        changed_y_sum: 0,
        thumbnail: Vec::new(),
        area_means: [[0; 3]; 9],
        luma: luma.clone(),
    };
    for (i, (&now, &before)) in luma.iter().zip(previous).enumerate() {
        let diff = (now as i32 - before as i32).unsigned_abs() as u64;
        frame.diff_sum += diff;
        frame.luma_sum += now as u64;
        frame.max_luma = frame.max_luma.max(now);
        if diff > PIXEL_CHANGE_THRESHOLD as u64 {
            frame.changed += 1;
            frame.changed_x_sum += (i % width) as u64;
            frame.changed_y_sum += (i / width) as u64;
        }
    }
    frame.thumbnail = reference_box(&luma, 1, width, height, THUMBNAIL_SIZE, THUMBNAIL_SIZE)
        .iter()
        .map(|(sums, count)| rounded_mean(sums[0], *count))
        .collect();
    for (mean, (sums, count)) in frame.area_means.iter_mut().zip(reference_box(rgba, 4, width, height, 3, 3)) {
        for channel in 0..3 {
            mean[channel] = rounded_mean(sums[channel], count);
        }
    }
    frame
}
