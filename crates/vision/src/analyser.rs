//! The per-session analyser: one fused pass over each frame, the event rules,
//! the whitelist, and the patrol thumbnail.

use crate::events::{EventState, FrameFacts, Rules};
use crate::grid::{fit_within, BoxGrid};
use crate::kernels::{Kernels, RowStats, BEST};
use crate::params::*;

pub const FLAG_HAS_PREVIOUS: u32 = 1;
pub const FLAG_DARK: u32 = 2;
pub const FLAG_ALL_BLACK: u32 = 4;
pub const FLAG_WHITELISTED: u32 = 8;
pub const FLAG_HAS_CENTROID: u32 = 16;

pub const AREA_COUNT: usize = AREA_GRID * AREA_GRID;
pub const THUMBNAIL_BYTES: usize = THUMBNAIL_SIZE * THUMBNAIL_SIZE;
pub const RESULT_WORDS: usize = 20;
const AREA_MEANS_WORD: usize = 13;

/// The result of one frame, in the layout of docs/vision.md.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameResult {
    pub flags: u32,
    pub events: u32,
    pub motion_score: f32,
    pub changed_ratio: f32,
    pub mean_luma: f32,
    pub centroid_x: f32,
    pub centroid_y: f32,
    pub nodding_count: u32,
    pub whitelist_index: i32,
    pub whitelist_score: f32,
    pub areas_changed: u32,
    pub low_motion_ms: u32,
    pub dark_ms: u32,
    pub area_means: [[u8; 3]; AREA_COUNT],
}

impl FrameResult {
    pub fn to_words(&self) -> [u32; RESULT_WORDS] {
        let mut words = [0u32; RESULT_WORDS];
        words[0] = self.flags;
        words[1] = self.events;
        words[2] = self.motion_score.to_bits();
        words[3] = self.changed_ratio.to_bits();
        words[4] = self.mean_luma.to_bits();
        words[5] = self.centroid_x.to_bits();
        words[6] = self.centroid_y.to_bits();
        words[7] = self.nodding_count;
        words[8] = self.whitelist_index as u32;
        words[9] = self.whitelist_score.to_bits();
        words[10] = self.areas_changed;
        words[11] = self.low_motion_ms;
        words[12] = self.dark_ms;
        let mut bytes = [0u8; (RESULT_WORDS - AREA_MEANS_WORD) * 4];
        for (area, mean) in self.area_means.iter().enumerate() {
            bytes[area * 3..area * 3 + 3].copy_from_slice(mean);
        }
        for (word, chunk) in words[AREA_MEANS_WORD..].iter_mut().zip(bytes.chunks_exact(4)) {
            *word = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        words
    }
}

/// The patrol thumbnail of the current frame.
pub struct Patrol<'a> {
    pub width: usize,
    pub height: usize,
    pub all_black: bool,
    pub rgba: &'a [u8],
}

/// Sums over the whole frame, gathered row by row.
#[derive(Default)]
struct FrameTotals {
    diff_sum: u64,
    luma_sum: u64,
    max_luma: u8,
    changed: u64,
    changed_x_sum: u64,
    changed_y_sum: u64,
}

impl FrameTotals {
    fn add_row(&mut self, y: usize, row: RowStats) {
        self.diff_sum += row.diff_sum as u64;
        self.luma_sum += row.luma_sum as u64;
        self.max_luma = self.max_luma.max(row.max_luma);
        self.changed += row.changed as u64;
        self.changed_x_sum += row.changed_x_sum as u64;
        self.changed_y_sum += row.changed as u64 * y as u64;
    }
}

pub struct Analyser {
    width: usize,
    height: usize,
    kernels: &'static Kernels,
    rules: Rules,
    frame: Vec<u8>,
    previous_luma: Vec<u8>,
    has_previous: bool,
    grid: BoxGrid,
    patrol_grid: BoxGrid,
    /// Per grid column R, G, B, A sums of the grid row being built.
    row_sums: Vec<[u32; 4]>,
    thumbnail: Vec<u8>,
    previous_area_means: Option<[[u8; 3]; AREA_COUNT]>,
    whitelist: Vec<u8>,
    events: EventState,
    result: [u32; RESULT_WORDS],
    patrol_rgba: Vec<u8>,
    patrol_record: [usize; 4],
}

impl Analyser {
    /// An analyser for frames of this size, or `None` for a size of 0 or
    /// over `MAX_SIDE` on a side.
    pub fn new(width: u32, height: u32, ios: bool, sleeper: bool) -> Option<Analyser> {
        Analyser::with_kernels(width, height, ios, sleeper, BEST)
    }

    pub fn with_kernels(width: u32, height: u32, ios: bool, sleeper: bool, kernels: &'static Kernels) -> Option<Analyser> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return None;
        }
        let (width, height) = (width as usize, height as usize);
        let (patrol_width, patrol_height) = fit_within(width, height, THUMBNAIL_SIZE);
        Some(Analyser {
            width,
            height,
            kernels,
            rules: Rules::new(ios, sleeper),
            frame: vec![0; width * height * 4],
            previous_luma: vec![0; width * height],
            has_previous: false,
            grid: BoxGrid::new(width, height, THUMBNAIL_SIZE, THUMBNAIL_SIZE),
            patrol_grid: BoxGrid::new(width, height, patrol_width, patrol_height),
            row_sums: vec![[0; 4]; THUMBNAIL_SIZE.max(patrol_width)],
            thumbnail: vec![0; THUMBNAIL_BYTES],
            previous_area_means: None,
            whitelist: Vec::new(),
            events: EventState::default(),
            result: [0; RESULT_WORDS],
            patrol_rgba: vec![0; patrol_width * patrol_height * 4],
            patrol_record: [0; 4],
        })
    }

    /// Where the next RGBA frame goes.
    pub fn frame_mut(&mut self) -> &mut [u8] {
        &mut self.frame
    }

    /// The last frame's 100x100 luma thumbnail.
    pub fn thumbnail(&self) -> &[u8] {
        &self.thumbnail
    }

    /// Makes room for `count` whitelist images and returns it to be filled,
    /// or `None` when `count` is over the limit.
    pub fn whitelist_mut(&mut self, count: usize) -> Option<&mut [u8]> {
        if count > MAX_WHITELIST {
            return None;
        }
        self.whitelist.clear();
        self.whitelist.resize(count * THUMBNAIL_BYTES, 0);
        Some(&mut self.whitelist)
    }

    /// The result record of the last frame, as words.
    pub fn result_words(&self) -> &[u32; RESULT_WORDS] {
        &self.result
    }

    /// The patrol record: width, height, all black, pointer to the pixels.
    pub fn patrol_record(&mut self) -> &[usize; 4] {
        let patrol = self.patrol();
        let record = [patrol.width, patrol.height, patrol.all_black as usize, patrol.rgba.as_ptr() as usize];
        self.patrol_record = record;
        &self.patrol_record
    }

    /// Analyses the frame in `frame_mut()`, taken at `time_ms`.
    pub fn process(&mut self, time_ms: f64) -> FrameResult {
        let totals = self.fused_pass();
        let result = self.judge(&totals, time_ms);
        self.has_previous = true;
        self.result = result.to_words();
        result
    }

    /// One pass over the frame, a grid row at a time so that each source row
    /// is read while it is in cache: the luma pass (diff, sums, changed
    /// pixels) runs on each source row once, then the row is box-summed into
    /// the 100x100 grid, whose rows become thumbnail luma and area sums.
    fn fused_pass(&mut self) -> (FrameTotals, [[u64; 4]; AREA_COUNT]) {
        let row_bytes = self.width * 4;
        let mut totals = FrameTotals::default();
        let mut areas = [[0u64; 4]; AREA_COUNT];
        let mut next_luma_row = 0;
        for (grid_row, rows) in self.grid.rows.iter().enumerate() {
            let sums = &mut self.row_sums[..THUMBNAIL_SIZE];
            sums.iter_mut().for_each(|sum| *sum = [0; 4]);
            for y in rows.start..rows.end {
                let row = &self.frame[y * row_bytes..(y + 1) * row_bytes];
                // Upscaled grids revisit a source row; its luma is done once.
                if y == next_luma_row {
                    let previous = &mut self.previous_luma[y * self.width..(y + 1) * self.width];
                    totals.add_row(y, (self.kernels.luma_diff_row)(row, previous, 0));
                    next_luma_row += 1;
                }
                (self.kernels.box_row_add)(row, &self.grid.cols, sums);
            }
            let area_row = grid_row * AREA_GRID / THUMBNAIL_SIZE;
            for (column, (cols, sum)) in self.grid.cols.iter().zip(sums.iter()).enumerate() {
                let count = cols.len() * rows.len();
                let mean = |channel: usize| self.grid.mean(sum[channel], count);
                self.thumbnail[grid_row * THUMBNAIL_SIZE + column] = luma(mean(0), mean(1), mean(2));
                let area = &mut areas[area_row * AREA_GRID + column * AREA_GRID / THUMBNAIL_SIZE];
                area[0] += sum[0] as u64;
                area[1] += sum[1] as u64;
                area[2] += sum[2] as u64;
                area[3] += count as u64;
            }
        }
        debug_assert_eq!(next_luma_row, self.height);
        (totals, areas)
    }

    fn judge(&mut self, (totals, areas): &(FrameTotals, [[u64; 4]; AREA_COUNT]), time_ms: f64) -> FrameResult {
        let pixels = (self.width * self.height) as f64;
        let has_previous = self.has_previous;
        let mut flags = 0;
        if has_previous {
            flags |= FLAG_HAS_PREVIOUS;
        }
        let motion_score = if has_previous { totals.diff_sum as f64 / pixels } else { 0.0 };
        let changed_ratio = if has_previous { totals.changed as f64 / pixels } else { 0.0 };
        let mean_luma = totals.luma_sum as f64 / pixels;
        let dark = mean_luma < DARK_MEAN_LUMA;
        if dark {
            flags |= FLAG_DARK;
        }
        if totals.max_luma <= ALL_BLACK_MAX_LUMA {
            flags |= FLAG_ALL_BLACK;
        }

        let least_changed = ((self.width * self.height) as u64 / 200).max(1);
        let centroid = if has_previous && totals.changed >= least_changed {
            let changed = totals.changed as f64;
            flags |= FLAG_HAS_CENTROID;
            Some((
                (totals.changed_x_sum as f64 / changed + 0.5) / self.width as f64,
                (totals.changed_y_sum as f64 / changed + 0.5) / self.height as f64,
            ))
        } else {
            None
        };

        let mut area_means = [[0u8; 3]; AREA_COUNT];
        for (mean, sums) in area_means.iter_mut().zip(areas.iter()) {
            let count = sums[3];
            for channel in 0..3 {
                mean[channel] = ((sums[channel] + count / 2) / count) as u8;
            }
        }
        let mut areas_changed = 0;
        if let Some(previous) = &self.previous_area_means {
            for (area, (now, before)) in area_means.iter().zip(previous.iter()).enumerate() {
                if now.iter().zip(before.iter()).any(|(a, b)| a.abs_diff(*b) > AREA_COLOUR_THRESHOLD) {
                    areas_changed |= 1 << area;
                }
            }
        }
        self.previous_area_means = Some(area_means);

        let (whitelist_index, whitelist_sum) = self.best_whitelist_match();
        let whitelisted = whitelist_index >= 0 && whitelist_sum <= WHITELIST_MATCH_THRESHOLD * THUMBNAIL_BYTES as u32;
        if whitelisted {
            flags |= FLAG_WHITELISTED;
        }

        let outcome = self.events.update(
            &self.rules,
            &FrameFacts { time_ms, has_previous, motion_score, dark, whitelisted, centroid_y: centroid.map(|c| c.1) },
        );

        FrameResult {
            flags,
            events: outcome.events,
            motion_score: motion_score as f32,
            changed_ratio: changed_ratio as f32,
            mean_luma: mean_luma as f32,
            centroid_x: centroid.map_or(0.0, |c| c.0 as f32),
            centroid_y: centroid.map_or(0.0, |c| c.1 as f32),
            nodding_count: outcome.nodding_count,
            whitelist_index,
            whitelist_score: if whitelist_index >= 0 { (whitelist_sum as f64 / THUMBNAIL_BYTES as f64) as f32 } else { 255.0 },
            areas_changed,
            low_motion_ms: outcome.low_motion_ms as u32,
            dark_ms: outcome.dark_ms as u32,
            area_means,
        }
    }

    /// The index and sum of absolute differences of the closest whitelist
    /// image (the first on ties), or -1 with no whitelist.
    fn best_whitelist_match(&self) -> (i32, u32) {
        let mut best = (-1, u32::MAX);
        for (index, image) in self.whitelist.chunks_exact(THUMBNAIL_BYTES).enumerate() {
            let sum = (self.kernels.sum_abs_diff)(&self.thumbnail, image);
            if sum < best.1 {
                best = (index as i32, sum);
            }
        }
        best
    }

    /// Box-filters the current frame so that its long side is at most 100 px.
    pub fn patrol(&mut self) -> Patrol<'_> {
        let row_bytes = self.width * 4;
        let patrol_width = self.patrol_grid.cols.len();
        let mut all_black = true;
        for (grid_row, rows) in self.patrol_grid.rows.iter().enumerate() {
            let sums = &mut self.row_sums[..patrol_width];
            sums.iter_mut().for_each(|sum| *sum = [0; 4]);
            for y in rows.start..rows.end {
                (self.kernels.box_row_add)(&self.frame[y * row_bytes..(y + 1) * row_bytes], &self.patrol_grid.cols, sums);
            }
            let out = &mut self.patrol_rgba[grid_row * patrol_width * 4..(grid_row + 1) * patrol_width * 4];
            for ((cols, sum), pixel) in self.patrol_grid.cols.iter().zip(sums.iter()).zip(out.chunks_exact_mut(4)) {
                let count = cols.len() * rows.len();
                let (r, g, b) = (
                    self.patrol_grid.mean(sum[0], count),
                    self.patrol_grid.mean(sum[1], count),
                    self.patrol_grid.mean(sum[2], count),
                );
                all_black &= luma(r, g, b) <= ALL_BLACK_MAX_LUMA;
                pixel.copy_from_slice(&[r, g, b, 255]);
            }
        }
        Patrol { width: patrol_width, height: self.patrol_grid.rows.len(), all_black, rgba: &self.patrol_rgba }
    }
}

#[cfg(test)]
mod tests;
