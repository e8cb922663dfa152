//! The face detector (docs/vision.md, "Face"): OpenCV's LBP cascade over an
//! image pyramid, as `CascadeClassifier::detectMultiScale` runs it, with
//! the overlapping hits grouped as `groupRectangles` does and the best
//! group kept.

pub mod model;

use crate::grid::{BoxGrid, WINDOW_VALUES};
use crate::kernels::{integral_column, Kernels, StumpCorners};
use crate::params::{
    FACE_DENSE_SCALE, FACE_GROUP_EPS, FACE_MIN_NEIGHBOURS, FACE_MIN_SIZE, FACE_SCALE_FACTOR, FACE_SEARCH_WIDTH,
};
pub use model::FaceModel;

/// What decides which faces are found (docs/vision.md, "Face"); the
/// shipped values are `params.rs`'s, tests and measurements try others.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// The smallest face looked for, in pixels of the image searched.
    pub min_size: f32,
    /// Each pyramid level is this much smaller than the one before.
    pub scale_factor: f32,
    /// Levels below this scale are scanned every second pixel, as OpenCV
    /// does: a face there spans well over the window, so the cascade still
    /// fires on several neighbouring positions, and it quarters the windows.
    pub dense_scale: f32,
    /// A group of hits is a face when it has more than this many.
    pub min_neighbours: usize,
    /// How far apart two hits may be, as a share of their size, and be one face.
    pub group_eps: f32,
}

impl Tuning {
    pub const SHIPPED: Tuning = Tuning {
        min_size: FACE_MIN_SIZE,
        scale_factor: FACE_SCALE_FACTOR,
        dense_scale: FACE_DENSE_SCALE,
        min_neighbours: FACE_MIN_NEIGHBOURS,
        group_eps: FACE_GROUP_EPS,
    };
}

/// Room past the integral image for a vector of windows' last lanes.
const INTEGRAL_PADDING: usize = 4;

/// A face: its centre and side in pixels of the image searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Face {
    pub x: f32,
    pub y: f32,
    pub size: f32,
}

/// A square in pixels of the image searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Square {
    x: i32,
    y: i32,
    size: i32,
}

/// One scale of the pyramid and what is set up for it once per image size.
struct Level {
    scale: f32,
    width: usize,
    height: usize,
    /// The box filter from the image; none at scale 1.
    grid: Option<BoxGrid>,
    /// 1, or 2 below `Tuning::dense_scale`. With 2 the integral image's
    /// columns are split, the even ones first (see `Kernels::integral`), so
    /// that windows a step apart read consecutive values.
    step: usize,
    /// Where each stump reads, from a window's place in the integral image.
    stumps: StumpCorners,
}

/// Per cluster of hits: the sums of x, y and size, the count, and the
/// mean square once the sums are complete.
#[derive(Clone, Copy, Default)]
struct Cluster {
    sums: [i64; 3],
    count: usize,
    square: Square,
}

pub struct FaceDetector {
    model: FaceModel,
    tuning: Tuning,
    /// The image size the buffers below are for.
    width: usize,
    height: usize,
    levels: Vec<Level>,
    /// The current level's pixels.
    pixels: Vec<u8>,
    /// Vertical sums of a level row being box-filtered.
    columns: Vec<u16>,
    integral: Vec<u32>,
    /// A row's running sums, for the integral kernels.
    scratch: Vec<u32>,
    /// 1 per window of a row that passed the cascade.
    accepted: Vec<u8>,
    /// Room for a hit per window of the pyramid, so nothing grows per frame.
    hits: Vec<Square>,
    /// Union-find parents and clusters of the hits.
    parents: Vec<usize>,
    clusters: Vec<Cluster>,
}

impl FaceDetector {
    pub fn new(model: FaceModel) -> FaceDetector {
        FaceDetector::with_tuning(model, Tuning::SHIPPED)
    }

    pub fn with_tuning(model: FaceModel, tuning: Tuning) -> FaceDetector {
        FaceDetector {
            model,
            tuning,
            width: 0,
            height: 0,
            levels: Vec::new(),
            pixels: Vec::new(),
            columns: Vec::new(),
            integral: Vec::new(),
            scratch: Vec::new(),
            accepted: Vec::new(),
            hits: Vec::new(),
            parents: Vec::new(),
            clusters: Vec::new(),
        }
    }

    /// The pyramid and the buffers for images of this size.
    fn prepare(&mut self, width: usize, height: usize) {
        let (window_width, window_height) = (self.model.window_width, self.model.window_height);
        self.levels.clear();
        let mut windows = 0;
        let tuning = self.tuning;
        let mut scale = 1.0f32;
        loop {
            let level_width = (width as f32 / scale).round() as usize;
            let level_height = (height as f32 / scale).round() as usize;
            if level_width < window_width || level_height < window_height {
                break;
            }
            // Levels of faces too small to matter are not scanned; the others
            // keep the scales they have from 1.
            if window_width.min(window_height) as f32 * scale < tuning.min_size {
                scale *= tuning.scale_factor;
                continue;
            }
            let step = if scale < tuning.dense_scale { 2 } else { 1 };
            let stride = level_width + 1;
            // Windows start at even columns, so a corner's column parity is
            // its offset's.
            let stumps = StumpCorners::new(&self.model, stride, |dx| integral_column(dx, stride, step == 2));
            windows += ((level_width - window_width) / step + 1) * ((level_height - window_height) / step + 1);
            let grid = (scale > 1.0).then(|| BoxGrid::new(width, height, level_width, level_height, 1));
            self.levels.push(Level { scale, width: level_width, height: level_height, grid, step, stumps });
            scale *= tuning.scale_factor;
        }
        self.width = width;
        self.height = height;
        self.pixels = vec![0; width * height];
        self.columns = vec![0; width + WINDOW_VALUES];
        self.integral = vec![0; (width + 1) * (height + 1) + INTEGRAL_PADDING];
        self.scratch = vec![0; width + 1 + INTEGRAL_PADDING];
        self.accepted = vec![0; width];
        self.hits = Vec::with_capacity(windows);
        self.parents = vec![0; windows];
        self.clusters = vec![Cluster::default(); windows];
    }

    /// The best face in a `width x height` grey image (the group with the
    /// most hits, then the largest), or `None`. The buffers are made for
    /// the first image of each size and kept.
    pub fn detect(&mut self, kernels: &Kernels, grey: &[u8], width: usize, height: usize) -> Option<Face> {
        if width == 0 || height == 0 || grey.len() < width * height {
            return None;
        }
        if (width, height) != (self.width, self.height) {
            self.prepare(width, height);
        }
        self.hits.clear();
        for index in 0..self.levels.len() {
            self.scan_level(kernels, grey, index);
        }
        self.best_group()
    }

    /// Box-filters the image to the level, makes its integral image and
    /// runs the cascade on every window, a row of windows a call.
    fn scan_level(&mut self, kernels: &Kernels, grey: &[u8], index: usize) {
        self.build_level(kernels, grey, index);
        let level = &self.levels[index];
        let (width, height) = (level.width, level.height);
        let stride = width + 1;
        let model = &self.model;
        let (step, columns) = (level.step, (width - model.window_width) / level.step + 1);
        let size = (model.window_width as f32 * level.scale).round() as i32;
        for y in (0..=height - model.window_height).step_by(step) {
            let accepted = &mut self.accepted[..columns];
            (kernels.cascade)(model, &level.stumps, &self.integral, y * stride, accepted);
            for (column, _) in accepted.iter().enumerate().filter(|(_, passed)| **passed != 0) {
                let place = |at: usize| (at as f32 * level.scale).round() as i32;
                // Always true (`prepare` makes room for every window of the
                // pyramid); it lets the compiler drop `push`'s growing code.
                if self.hits.len() < self.hits.capacity() {
                    self.hits.push(Square { x: place(column * step), y: place(y), size });
                }
            }
        }
    }

    /// Box-filters the image to the level and makes its integral image.
    fn build_level(&mut self, kernels: &Kernels, grey: &[u8], index: usize) {
        let level = &mut self.levels[index];
        let (width, height) = (level.width, level.height);
        let pixels: &[u8] = match &mut level.grid {
            None => &grey[..width * height],
            Some(grid) => {
                for row in 0..height {
                    let rows = grid.rows[row];
                    (kernels.sum_rows)(
                        &grey[rows.start * self.width..rows.end * self.width],
                        &mut self.columns[..self.width],
                    );
                    grid.finish_row(kernels, row, &self.columns, &mut self.pixels[row * width..(row + 1) * width]);
                }
                &self.pixels[..width * height]
            }
        };
        let stride = width + 1;
        (kernels.integral)(
            pixels,
            width,
            level.step == 2,
            &mut self.scratch,
            &mut self.integral[..stride * (height + 1)],
        );
    }

    /// Groups the hits as OpenCV's `groupRectangles` does (union of similar
    /// squares, mean of each group, groups of at most `min_neighbours` and
    /// groups inside a stronger one dropped) and returns the best face.
    fn best_group(&mut self) -> Option<Face> {
        let (min_neighbours, group_eps) = (self.tuning.min_neighbours, self.tuning.group_eps);
        let count = self.hits.len();
        let parents = &mut self.parents[..count];
        // Hit `i` starts as its own root when the loop reaches it: until
        // then only hits before it are read or joined, and a root is never
        // above its hits. The clusters likewise: hit `i` is the first of its
        // cluster exactly when it is its root. Neither array is cleared
        // apart, which the compiler vectorised into a third of this
        // function's code (docs/vision.md, "Face").
        fn root(parents: &mut [usize], mut at: usize) -> usize {
            while parents[at] != at {
                parents[at] = parents[parents[at]];
                at = parents[at];
            }
            at
        }
        for i in 0..count {
            parents[i] = i;
            for j in 0..i {
                if similar(self.hits[i], self.hits[j], group_eps) {
                    let (a, b) = (root(parents, i), root(parents, j));
                    parents[a.max(b)] = a.min(b);
                }
            }
        }
        let clusters = &mut self.clusters[..count];
        for (index, hit) in self.hits.iter().enumerate() {
            let at = root(parents, index);
            if at == index {
                clusters[index] = Cluster::default();
            } else {
                // Not a root: no hit joins it, and a count of 0 is never strong.
                clusters[index].count = 0;
            }
            let cluster = &mut clusters[at];
            cluster.sums[0] += hit.x as i64;
            cluster.sums[1] += hit.y as i64;
            cluster.sums[2] += hit.size as i64;
            cluster.count += 1;
        }
        // Each strong cluster's mean, once; the others are never read.
        for cluster in clusters.iter_mut().filter(|cluster| cluster.count > min_neighbours) {
            let count = cluster.count as f32;
            let [x, y, size] = cluster.sums.map(|sum| (sum as f32 / count).round() as i32);
            cluster.square = Square { x, y, size };
        }
        let mut best: Option<(usize, Square)> = None;
        for (index, cluster) in clusters.iter().enumerate() {
            if cluster.count <= min_neighbours {
                continue;
            }
            let square = cluster.square;
            let inside_stronger = clusters.iter().enumerate().any(|(at, other)| {
                let outer = other.square;
                let margin = (outer.size as f32 * group_eps).round() as i32;
                other.count > min_neighbours
                    && at != index
                    && square.x >= outer.x - margin
                    && square.y >= outer.y - margin
                    && square.x + square.size <= outer.x + outer.size + margin
                    && square.y + square.size <= outer.y + outer.size + margin
                    && (other.count > cluster.count.max(3) || cluster.count < 3)
            });
            let better = best.map_or(true, |(count, kept)| (cluster.count, square.size) > (count, kept.size));
            if !inside_stronger && better {
                best = Some((cluster.count, square));
            }
        }
        best.map(|(_, square)| {
            let half = square.size as f32 / 2.0;
            Face { x: square.x as f32 + half, y: square.y as f32 + half, size: square.size as f32 }
        })
    }
}

/// What an analyser keeps for faces: room for the model's bytes, the
/// detector once a model is loaded, and the box filter from the frame's
/// luma to the size searched.
pub struct FaceSearch {
    model_bytes: Vec<u8>,
    detector: Option<FaceDetector>,
    width: usize,
    height: usize,
    /// From the frame to `FACE_SEARCH_WIDTH`; none for a frame no wider.
    grid: Option<BoxGrid>,
    frame_width: usize,
    /// Frame pixels per searched pixel, across and down.
    scales: [f32; 2],
    columns: Vec<u16>,
    luma: Vec<u8>,
}

impl FaceSearch {
    pub fn new(frame_width: usize, frame_height: usize) -> FaceSearch {
        let (width, height) = if frame_width <= FACE_SEARCH_WIDTH {
            (frame_width, frame_height)
        } else {
            (FACE_SEARCH_WIDTH, ((frame_height * FACE_SEARCH_WIDTH + frame_width / 2) / frame_width).max(1))
        };
        let grid = (width < frame_width).then(|| BoxGrid::new(frame_width, frame_height, width, height, 1));
        FaceSearch {
            model_bytes: Vec::new(),
            detector: None,
            width,
            height,
            columns: if grid.is_some() { vec![0; frame_width + WINDOW_VALUES] } else { Vec::new() },
            luma: if grid.is_some() { vec![0; width * height] } else { Vec::new() },
            grid,
            frame_width,
            scales: [frame_width as f32 / width as f32, frame_height as f32 / height as f32],
        }
    }

    /// Room for a model of `length` bytes, to be filled before `load`, or
    /// `None` for 0 or over `model::MAX_MODEL_BYTES`.
    pub fn model_bytes_mut(&mut self, length: usize) -> Option<&mut [u8]> {
        if length == 0 || length > model::MAX_MODEL_BYTES {
            return None;
        }
        self.model_bytes = vec![0; length];
        Some(&mut self.model_bytes)
    }

    /// Parses the bytes written and uses the model; says whether it is in
    /// use (malformed bytes leave no model in use).
    pub fn load(&mut self) -> bool {
        self.detector = FaceModel::parse(&self.model_bytes).map(FaceDetector::new);
        self.model_bytes = Vec::new();
        self.detector.is_some()
    }

    pub fn has_model(&self) -> bool {
        self.detector.is_some()
    }

    /// The best face in a frame's luma (`frame_width` a row), in pixels of
    /// the frame; `None` without a model.
    pub fn detect(&mut self, kernels: &Kernels, frame_luma: &[u8]) -> Option<Face> {
        let detector = self.detector.as_mut()?;
        let (width, height, frame_width) = (self.width, self.height, self.frame_width);
        let searched: &[u8] = match &mut self.grid {
            None => frame_luma,
            Some(grid) => {
                for row in 0..height {
                    let rows = grid.rows[row];
                    let source = &frame_luma[rows.start * frame_width..rows.end * frame_width];
                    (kernels.sum_rows)(source, &mut self.columns[..frame_width]);
                    grid.finish_row(kernels, row, &self.columns, &mut self.luma[row * width..(row + 1) * width]);
                }
                &self.luma
            }
        };
        let face = detector.detect(kernels, searched, width, height)?;
        let [across, down] = self.scales;
        Some(Face { x: face.x * across, y: face.y * down, size: face.size * across })
    }
}

/// OpenCV's `SimilarRects`: every side within `eps` of the mean size.
fn similar(a: Square, b: Square, eps: f32) -> bool {
    let delta = eps * a.size.min(b.size) as f32;
    let near = |p: i32, q: i32| ((p - q).abs() as f32) <= delta;
    near(a.x, b.x) && near(a.y, b.y) && near(a.x + a.size, b.x + b.size) && near(a.y + a.size, b.y + b.size)
}

#[cfg(test)]
mod measure;
#[cfg(test)]
pub(crate) mod tests;
