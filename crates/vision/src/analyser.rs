//! The per-session analyser: one fused pass over each frame, the event rules,
//! the whitelist, and the patrol thumbnail.

use crate::events::{EventState, FaceFact, FrameFacts, Rules};
use crate::face::{Face, FaceSearch};
use crate::grid::{area_pieces, fit_within, spans, BoxGrid, Piece, Span, WINDOW_VALUES};
use crate::kernels::{Kernels, RowStats, BEST, PIECE_LANES};
pub use crate::layout::*;
use crate::params::*;

pub const AREA_COUNT: usize = AREA_GRID * AREA_GRID;
pub const THUMBNAIL_BYTES: usize = THUMBNAIL_SIZE * THUMBNAIL_SIZE;
/// The bytes of the area mean colours, padded to whole words.
const AREA_MEANS_BYTES: usize = (AREA_COUNT * 3 + 3) / 4 * 4;

/// A face found in a frame, in fractions of the frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameFace {
    /// The centre, as fractions of the width and the height.
    pub x: f32,
    pub y: f32,
    /// The side, as a fraction of the width.
    pub size: f32,
}

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
    pub face: Option<FrameFace>,
    pub no_face_ms: u32,
}

impl FrameResult {
    pub fn to_words(&self) -> [u32; RESULT_WORDS] {
        let mut words = [0u32; RESULT_WORDS];
        words[WORD_FLAGS] = self.flags;
        words[WORD_EVENTS] = self.events;
        words[WORD_MOTION_SCORE] = self.motion_score.to_bits();
        words[WORD_CHANGED_RATIO] = self.changed_ratio.to_bits();
        words[WORD_MEAN_LUMA] = self.mean_luma.to_bits();
        words[WORD_CENTROID_X] = self.centroid_x.to_bits();
        words[WORD_CENTROID_Y] = self.centroid_y.to_bits();
        words[WORD_NODDING_COUNT] = self.nodding_count;
        words[WORD_WHITELIST_INDEX] = self.whitelist_index as u32;
        words[WORD_WHITELIST_SCORE] = self.whitelist_score.to_bits();
        words[WORD_AREAS_CHANGED] = self.areas_changed;
        words[WORD_LOW_MOTION_MS] = self.low_motion_ms;
        words[WORD_DARK_MS] = self.dark_ms;
        let mut bytes = [0u8; AREA_MEANS_BYTES];
        for (area, mean) in self.area_means.iter().enumerate() {
            bytes[area * 3..area * 3 + 3].copy_from_slice(mean);
        }
        let area_words = &mut words[WORD_AREA_MEANS..WORD_AREA_MEANS + AREA_MEANS_BYTES / 4];
        for (word, chunk) in area_words.iter_mut().zip(bytes.chunks_exact(4)) {
            *word = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        let face = self.face.unwrap_or_default();
        words[WORD_FACE_X] = face.x.to_bits();
        words[WORD_FACE_Y] = face.y.to_bits();
        words[WORD_FACE_SIZE] = face.size.to_bits();
        words[WORD_NO_FACE_MS] = self.no_face_ms;
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
    /// Per area: R, G, B sums and the pixel count.
    areas: [[u64; 4]; AREA_COUNT],
}

impl FrameTotals {
    fn add(&mut self, rows: RowStats) {
        self.diff_sum += rows.diff_sum as u64;
        self.luma_sum += rows.luma_sum as u64;
        self.max_luma = self.max_luma.max(rows.max_luma);
        self.changed += rows.changed as u64;
        self.changed_x_sum += rows.changed_x_sum as u64;
        self.changed_y_sum += rows.changed_y_sum as u64;
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
    /// The box filter to the 100x100 whitelist thumbnail.
    grid: BoxGrid,
    /// Vertical luma sums of the thumbnail row being built, per column.
    column_luma: Vec<u16>,
    area_pieces: Vec<Piece>,
    /// Where the area pieces meet: each piece's start but the first.
    area_cuts: Vec<usize>,
    area_rows: Vec<Span>,
    /// Per source row, a bit for each area row it is in (one bit, but for
    /// frames under three rows tall).
    row_area_rows: Vec<u8>,
    patrol_grid: BoxGrid,
    /// Vertical RGBA sums of the patrol row being built, per column.
    column_rgba: Vec<u16>,
    thumbnail: Vec<u8>,
    previous_area_means: Option<[[u8; 3]; AREA_COUNT]>,
    whitelist: Vec<u8>,
    events: EventState,
    result: [u32; RESULT_WORDS],
    patrol_rgba: Vec<u8>,
    patrol_record: [usize; 4],
    /// The face model, once loaded, and the search's buffers.
    face: FaceSearch,
}

impl Analyser {
    /// An analyser for frames of this size, or `None` for a size of 0 or
    /// over `MAX_SIDE` on a side.
    pub fn new(width: u32, height: u32, ios: bool, sleeper: bool) -> Option<Analyser> {
        Analyser::with_kernels(width, height, ios, sleeper, BEST)
    }

    pub fn with_kernels(
        width: u32,
        height: u32,
        ios: bool,
        sleeper: bool,
        kernels: &'static Kernels,
    ) -> Option<Analyser> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return None;
        }
        let (width, height) = (width as usize, height as usize);
        let (patrol_width, patrol_height) = fit_within(width, height, THUMBNAIL_SIZE);
        let area_pieces = area_pieces(width);
        let area_rows = spans(height, AREA_GRID);
        Some(Analyser {
            width,
            height,
            kernels,
            rules: Rules::new(ios, sleeper),
            frame: vec![0; width * height * 4],
            previous_luma: vec![0; width * height],
            has_previous: false,
            grid: BoxGrid::new(width, height, THUMBNAIL_SIZE, THUMBNAIL_SIZE, 1),
            // Room past the last column for the box filters' windows to read.
            column_luma: vec![0; width + WINDOW_VALUES],
            area_cuts: area_pieces.iter().skip(1).map(|piece| piece.span.start).collect(),
            area_pieces,
            row_area_rows: (0..height)
                .map(|y| {
                    let rows = &area_rows;
                    (0..AREA_GRID).filter(|&r| rows[r].start <= y && y < rows[r].end).fold(0, |mask, r| mask | 1 << r)
                })
                .collect(),
            area_rows,
            patrol_grid: BoxGrid::new(width, height, patrol_width, patrol_height, 4),
            column_rgba: vec![0; width * 4 + WINDOW_VALUES],
            thumbnail: vec![0; THUMBNAIL_BYTES],
            previous_area_means: None,
            whitelist: Vec::new(),
            events: EventState::default(),
            result: [0; RESULT_WORDS],
            patrol_rgba: vec![0; patrol_width * patrol_height * 4],
            patrol_record: [0; 4],
            face: FaceSearch::new(width, height),
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

    /// Room for the face model's bytes (docs/vision.md, "Face"), or `None`
    /// for 0 or over `face::model::MAX_MODEL_BYTES`.
    pub fn face_model_mut(&mut self, length: usize) -> Option<&mut [u8]> {
        self.face.model_bytes_mut(length)
    }

    /// Parses the face model written and uses it; says whether it is in use.
    pub fn load_face_model(&mut self) -> bool {
        self.face.load()
    }

    pub fn has_face_model(&self) -> bool {
        self.face.has_model()
    }

    /// The best face in the frame last processed (its pass leaves the
    /// frame's luma in `previous_luma`), box-filtered to at most
    /// `params::FACE_SEARCH_WIDTH` wide; in pixels of the frame. `None` without a
    /// face model or a face.
    pub fn detect_face(&mut self) -> Option<Face> {
        self.face.detect(self.kernels, &self.previous_luma)
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
        let face = self.detect_face().map(|face| FrameFace {
            x: face.x / self.width as f32,
            y: face.y / self.height as f32,
            size: face.size / self.width as f32,
        });
        let result = self.judge(&totals, self.has_face_model(), face, time_ms);
        self.has_previous = true;
        self.result = result.to_words();
        result
    }

    /// One pass over the frame, a thumbnail row at a time so that each
    /// source row is read while it is in cache. The luma pass runs on each
    /// source row once, a block of rows a call: it diffs and replaces the
    /// previous luma, gathers the sums, and adds the luma to the column sums
    /// from which each thumbnail row is then averaged.
    // The area loops index, as the means' and compares' in `judge` do.
    #[allow(clippy::needless_range_loop)]
    fn fused_pass(&mut self) -> FrameTotals {
        let width = self.width;
        let mut totals = FrameTotals::default();
        // R, G, B partial sums per area row and row piece (see PIECE_LANES);
        // resolved into areas below.
        let mut piece_lanes = [[0u32; PIECE_LANES]; AREA_GRID];
        let mut shared = [0u32; PIECE_LANES];
        let mut next_luma_row = 0;
        for grid_row in 0..self.grid.rows.len() {
            let rows = self.grid.rows[grid_row];
            let mut y = rows.start;
            while y < rows.end {
                // The first row of a thumbnail row starts its column sums (no
                // clearing: engines run small fills as calls).
                let start_columns = y == rows.start;
                // A thumbnail taller than the frame revisits a source row.
                if y < next_luma_row {
                    let start_or_add = if start_columns { self.kernels.set_row } else { self.kernels.add_row };
                    start_or_add(&self.previous_luma[y * width..(y + 1) * width], &mut self.column_luma[..width]);
                    y += 1;
                    continue;
                }
                // The rows up to the end of this thumbnail row or area row.
                let area_rows = self.row_area_rows[y];
                let mut end = y + 1;
                while end < rows.end && self.row_area_rows[end] == area_rows {
                    end += 1;
                }
                // One call site, so the kernel call is inlined once: a frame
                // under three rows tall has rows in more than one area row,
                // whose sums go to `shared` and then to each.
                let single = (area_rows as u32).is_power_of_two();
                if !single {
                    shared = [0; PIECE_LANES];
                }
                let lanes = if single { &mut piece_lanes[area_rows.trailing_zeros() as usize] } else { &mut shared };
                totals.add((self.kernels.luma_diff_rows)(
                    &self.frame[y * width * 4..end * width * 4],
                    &mut self.previous_luma[y * width..end * width],
                    &mut self.column_luma[..width],
                    &self.area_cuts,
                    y,
                    start_columns,
                    lanes,
                ));
                if !single {
                    for (area_row, lanes) in piece_lanes.iter_mut().enumerate() {
                        if area_rows & (1 << area_row) != 0 {
                            lanes.iter_mut().zip(&shared).for_each(|(lane, value)| *lane += value);
                        }
                    }
                }
                next_luma_row = end;
                y = end;
            }
            let out = &mut self.thumbnail[grid_row * THUMBNAIL_SIZE..(grid_row + 1) * THUMBNAIL_SIZE];
            self.grid.finish_row(self.kernels, grid_row, &self.column_luma, out);
        }
        debug_assert_eq!(next_luma_row, self.height);
        for area_row in 0..AREA_GRID {
            let (lanes, rows) = (&piece_lanes[area_row], &self.area_rows[area_row]);
            for (index, piece) in self.area_pieces.iter().enumerate() {
                let channel_sum = |channel: usize| {
                    let at = index * 12 + channel * 4;
                    lanes[at..at + 4].iter().map(|&lane| lane as u64).sum::<u64>()
                };
                for area_column in 0..AREA_GRID {
                    if !piece.area_columns[area_column] {
                        continue;
                    }
                    let area = &mut totals.areas[area_row * AREA_GRID + area_column];
                    for channel in 0..3 {
                        area[channel] += channel_sum(channel);
                    }
                    area[3] += (piece.span.len() * rows.len()) as u64;
                }
            }
        }
        totals
    }

    /// `face`: the face found in this frame, `None` when none was found or
    /// no face model is loaded (`face_detector`).
    #[allow(clippy::needless_range_loop)]
    fn judge(
        &mut self,
        totals: &FrameTotals,
        face_detector: bool,
        face: Option<FrameFace>,
        time_ms: f64,
    ) -> FrameResult {
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
        for area in 0..opaque(AREA_COUNT) {
            let (mean, sums) = (&mut area_means[area], &totals.areas[area]);
            let count = sums[3];
            for channel in 0..3 {
                mean[channel] = ((sums[channel] + count / 2) / count) as u8;
            }
        }
        let mut areas_changed = 0;
        if let Some(previous) = &self.previous_area_means {
            for area in 0..AREA_COUNT {
                let (now, before) = (&area_means[area], &previous[area]);
                if (0..opaque(3)).any(|channel| now[channel].abs_diff(before[channel]) > AREA_COLOUR_THRESHOLD) {
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

        if face_detector {
            flags |= FLAG_FACE_DETECTOR;
        }
        if face.is_some() {
            flags |= FLAG_FACE;
        }
        let aspect = self.width as f64 / self.height as f64;
        let outcome = self.events.update(
            &self.rules,
            &FrameFacts {
                time_ms,
                has_previous,
                motion_score,
                dark,
                whitelisted,
                face_detector,
                face: face.map(|face| FaceFact { y: face.y as f64, size: face.size as f64 * aspect }),
            },
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
            whitelist_score: if whitelist_index >= 0 {
                (whitelist_sum as f64 / THUMBNAIL_BYTES as f64) as f32
            } else {
                255.0
            },
            areas_changed,
            low_motion_ms: outcome.low_motion_ms as u32,
            dark_ms: outcome.dark_ms as u32,
            area_means,
            face,
            no_face_ms: outcome.no_face_ms as u32,
        }
    }

    /// The index and sum of absolute differences of the closest whitelist
    /// image (the first on ties), or -1 with no whitelist.
    fn best_whitelist_match(&self) -> (i32, u32) {
        let mut best = (-1, u32::MAX);
        for (index, image) in self.whitelist.chunks_exact(THUMBNAIL_BYTES).enumerate() {
            let sum = (self.kernels.sum_abs_diff)(&self.thumbnail, image, best.1);
            if sum < best.1 {
                best = (index as i32, sum);
            }
        }
        best
    }

    /// Box-filters the current frame so that its long side is at most 100 px:
    /// the rows of each output row summed column by column, then averaged
    /// across each output column's span. Alpha is averaged like the colours,
    /// so it stays 255 for camera frames, which are opaque.
    pub fn patrol(&mut self) -> Patrol<'_> {
        let row_bytes = self.width * 4;
        let patrol_width = self.patrol_grid.cols.len();
        for grid_row in 0..self.patrol_grid.rows.len() {
            let rows = self.patrol_grid.rows[grid_row];
            (self.kernels.sum_rows)(
                &self.frame[rows.start * row_bytes..rows.end * row_bytes],
                &mut self.column_rgba[..row_bytes],
            );
            let out = &mut self.patrol_rgba[grid_row * patrol_width * 4..(grid_row + 1) * patrol_width * 4];
            self.patrol_grid.finish_row(self.kernels, grid_row, &self.column_rgba, out);
        }
        // Usually the first pixel is bright and ends the search.
        let all_black =
            !self.patrol_rgba.chunks_exact(4).any(|pixel| luma(pixel[0], pixel[1], pixel[2]) > ALL_BLACK_MAX_LUMA);
        Patrol { width: patrol_width, height: self.patrol_grid.rows.len(), all_black, rgba: &self.patrol_rgba }
    }
}

#[cfg(test)]
mod tests;

/// `count`, which the optimiser cannot see through: a loop to it is not
/// unrolled. For two of the per-frame loops over the nine areas (their means'
/// 27 divisions, their colours' compares), where it made the gzipped module
/// smallest of the placements tried (docs/vision.md, "Module size").
#[inline(always)]
fn opaque(count: usize) -> usize {
    // SAFETY: a read of a local.
    unsafe { core::ptr::read_volatile(&count) }
}
