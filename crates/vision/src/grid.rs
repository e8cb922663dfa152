//! Box-filter geometry: which source pixels each output cell averages, and
//! exact rounded division by the cell sizes without a division per cell.

use crate::kernels::Kernels;

/// A half-open range of source pixels, `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

// A span holds at least one pixel (see `spans`), so it is never empty.
#[allow(clippy::len_without_is_empty)]
impl Span {
    pub fn len(&self) -> usize {
        self.end - self.start
    }
}

/// The source ranges of `target` output cells over `source` pixels: when
/// downscaling they tile the source; when upscaling each takes one pixel.
pub fn spans(source: usize, target: usize) -> Vec<Span> {
    (0..target)
        .map(|j| {
            let start = j * source / target;
            let end = ((j + 1) * source / target).max(start + 1);
            Span { start, end }
        })
        .collect()
}

/// The output size that brings the long side down to at most `limit`,
/// keeping the aspect ratio (halves round up) and never enlarging.
pub fn fit_within(width: usize, height: usize, limit: usize) -> (usize, usize) {
    let long = width.max(height);
    if long <= limit {
        return (width, height);
    }
    let scale = |side: usize| ((side * limit + long / 2) / long).max(1);
    (scale(width), scale(height))
}

/// Added before truncating `(sum + half) * (1 / count)` in `f32` so that it
/// equals the integer `(sum + half) / count`. With counts up to 41 x 41 and
/// quotients below 256 the product is within 2^-15 of the true quotient
/// `q + k / count` (0 <= k < count), and `2^-15 < 2^-12 < 1 / count - 2^-15`,
/// so the truncation lands on `q`. Tested over every count at the boundaries.
pub const MEAN_EPSILON: f32 = 1.0 / 4096.0;

/// How the sums of one output row are divided by each value's pixel count
/// into rounded means, `(sum + half) / count`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Divisors {
    /// Per value, half its count, and its reciprocal (see `MEAN_EPSILON`).
    pub halves: Vec<u32>,
    pub inverses: Vec<f32>,
    /// When every count is a power of two up to 256 (each cell of a frame up
    /// to twice the output is 1, 2 or 4 pixels), the same division exactly
    /// in 16 bits, eight values at a time: `((sum + half) * (256 / count))
    /// >> 8`, which stays below 65,536. Per value, the half and the factor,
    /// with `WINDOW_VALUES` of padding for whole-vector loads.
    pub powers_of_two: Option<(Vec<u16>, Vec<u16>)>,
}

impl Divisors {
    pub fn of(counts: &[usize]) -> Divisors {
        // One loop of pushes, which the compiler does not vectorise: this
        // runs once per grid and row length.
        let (mut halves, mut inverses) = (Vec::with_capacity(counts.len()), Vec::with_capacity(counts.len()));
        for &count in counts {
            halves.push((count / 2) as u32);
            inverses.push(1.0 / count as f32);
        }
        let powers_of_two = counts.iter().all(|count| count.is_power_of_two() && *count <= 256).then(|| {
            // Indexed, not chained with the padding: a chain's collect is
            // twice the code (docs/vision.md, "Measured").
            let padded = |value: fn(usize) -> u16| {
                (0..counts.len() + WINDOW_VALUES).map(|at| counts.get(at).map_or(0, |&count| value(count))).collect()
            };
            (padded(|count| (count / 2) as u16), padded(|count| (256 / count) as u16))
        });
        Divisors { halves, inverses, powers_of_two }
    }
}

/// A box filter from a source frame to a `cols x rows` grid of `channels`
/// interleaved values per cell.
pub struct BoxGrid {
    pub cols: Vec<Span>,
    pub rows: Vec<Span>,
    channels: usize,
    /// Indexed by the length of an output row's source span.
    divisors: Vec<Divisors>,
    /// The column windows (see `Window`).
    windows: Vec<Window>,
    /// Scratch for the kernels while a row is finished.
    scratch: Vec<u32>,
}

impl BoxGrid {
    pub fn new(width: usize, height: usize, cols: usize, rows: usize, channels: usize) -> BoxGrid {
        let cols = spans(width, cols);
        let rows = spans(height, rows);
        let tallest = rows.iter().map(Span::len).max().unwrap_or(1);
        let mut divisors: Vec<Divisors> = (0..=tallest).map(|_| Divisors::default()).collect();
        for length in rows.iter().map(Span::len) {
            if divisors[length].halves.is_empty() {
                let counts: Vec<usize> =
                    (0..cols.len() * channels).map(|value| cols[value / channels].len() * length).collect();
                divisors[length] = Divisors::of(&counts);
            }
        }
        // Running sums over the (padded) columns, then one sum per cell and a
        // window's worth of room for the last window's stores.
        let scratch = vec![0; width * channels + WINDOW_VALUES + 1 + cols.len() * channels + WINDOW_VALUES];
        let windows = windows(&cols, channels);
        BoxGrid { cols, rows, channels, divisors, windows, scratch }
    }

    /// The rounded means of output row `row`, from the vertical sums of its
    /// source rows: interleaved 16-bit sums per source column in (with
    /// `WINDOW_VALUES` of room past the last for the windows to read), one
    /// byte per channel per cell out.
    pub fn finish_row(&mut self, kernels: &Kernels, row: usize, columns: &[u16], out: &mut [u8]) {
        let divisors = &self.divisors[self.rows[row].len()];
        let (spans, windows) = (&self.cols, &self.windows);
        (kernels.span_means)(columns, spans, windows, self.channels, divisors, &mut self.scratch, out);
    }
}

/// How many 16-bit column values a window reads: two 128-bit vectors.
pub const WINDOW_VALUES: usize = 16;

/// Consecutive output cells, as many as fill eight 16-bit lanes, whose
/// source columns all lie within the `WINDOW_VALUES` values from column
/// `start`, with the byte indices that swizzle each lane's first and second
/// column out of each of the two vectors (0xFF reads as zero). With these a
/// frame up to twice the output's width is box-filtered horizontally eight
/// lanes at a time, with no loop per cell: such loops end unpredictably, and
/// engines check for interrupts at each, which costs more than the pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub start: usize,
    pub first_cell: usize,
    pub cells: usize,
    pub first: [[u8; 16]; 2],
    pub second: [[u8; 16]; 2],
}

/// The windows over `spans` of columns of `channels` values (1 or 4), or
/// none when a span is longer than two columns.
pub fn windows(spans: &[Span], channels: usize) -> Vec<Window> {
    if spans.iter().any(|span| span.len() > 2) || !(channels == 1 || channels == 4) {
        return Vec::new();
    }
    let (most_cells, columns) = (8 / channels, WINDOW_VALUES / channels);
    let mut windows = Vec::new();
    let mut first_cell = 0;
    while first_cell < spans.len() {
        let start = spans[first_cell].start;
        let mut window = Window { start, first_cell, cells: 0, first: [[0xFF; 16]; 2], second: [[0xFF; 16]; 2] };
        while window.cells < most_cells
            && first_cell + window.cells < spans.len()
            && spans[first_cell + window.cells].end <= start + columns
        {
            let span = spans[first_cell + window.cells];
            for channel in 0..channels {
                let lane = window.cells * channels + channel;
                // The byte index of column `column`'s value for this channel.
                let point = |indices: &mut [[u8; 16]; 2], column: usize| {
                    let value = (column - start) * channels + channel;
                    let (vector, byte) = (value / 8, (value % 8) * 2);
                    indices[vector][2 * lane] = byte as u8;
                    indices[vector][2 * lane + 1] = byte as u8 + 1;
                };
                point(&mut window.first, span.start);
                if span.len() == 2 {
                    point(&mut window.second, span.start + 1);
                }
            }
            window.cells += 1;
        }
        first_cell += window.cells;
        windows.push(window);
    }
    windows
}

/// A stretch of a row between area boundaries, and the area columns it
/// belongs to (more than one only in frames narrower than three pixels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub span: Span,
    pub area_columns: [bool; 3],
}

/// Cuts `0..width` at every boundary of the three area column spans: from
/// 0, each piece ends at the nearest boundary past its start. (The six
/// boundaries were sorted and deduplicated before; this is a fifth of the
/// code in the wasm module, and the library's sort, 2 KB gzipped, was
/// already kept out.)
pub fn area_pieces(width: usize) -> Vec<Piece> {
    let columns = spans(width, 3);
    let mut pieces = Vec::new();
    let mut start = 0;
    loop {
        let mut end = usize::MAX;
        for column in &columns {
            for cut in [column.start, column.end] {
                if cut > start && cut < end {
                    end = cut;
                }
            }
        }
        if end == usize::MAX {
            return pieces;
        }
        let span = Span { start, end };
        let mut area_columns = [false; 3];
        for (inside, column) in area_columns.iter_mut().zip(&columns) {
            *inside = column.start <= span.start && span.end <= column.end;
        }
        pieces.push(Piece { span, area_columns });
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_tile_the_source_when_downscaling() {
        for (source, target) in [(160, 100), (640, 100), (480, 100), (100, 100), (101, 100), (4096, 100)] {
            let spans = spans(source, target);
            assert_eq!(spans[0].start, 0);
            assert_eq!(spans[target - 1].end, source);
            for pair in spans.windows(2) {
                assert_eq!(pair[0].end, pair[1].start);
            }
            assert!(spans.iter().all(|span| span.len() >= 1));
        }
    }

    #[test]
    fn spans_take_one_pixel_each_when_upscaling() {
        let spans = spans(3, 100);
        assert!(spans.iter().all(|span| span.len() == 1));
        assert_eq!(spans[0].start, 0);
        assert_eq!(spans[33].start, 0);
        assert_eq!(spans[34].start, 1);
        assert_eq!(spans[99].start, 2);
    }

    #[test]
    fn fit_within_keeps_the_aspect_and_never_enlarges() {
        assert_eq!(fit_within(640, 480, 100), (100, 75));
        assert_eq!(fit_within(480, 640, 100), (75, 100));
        assert_eq!(fit_within(160, 120, 100), (100, 75));
        assert_eq!(fit_within(17, 9, 100), (17, 9));
        assert_eq!(fit_within(4096, 1, 100), (100, 1));
        assert_eq!(fit_within(161, 121, 100), (100, 75));
    }

    #[test]
    fn windows_gather_every_lane_once() {
        for channels in [1, 4] {
            for (source, target) in [(160, 100), (101, 100), (200, 100), (3, 100), (17, 9), (100, 100), (150, 75)] {
                let cells = spans(source, target);
                let windows = windows(&cells, channels);
                assert_eq!(windows.iter().map(|window| window.cells).sum::<usize>(), target);
                let mut next = 0;
                for window in &windows {
                    assert_eq!(window.first_cell, next);
                    assert!(window.cells * channels <= 8);
                    for (cell, span) in cells[window.first_cell..window.first_cell + window.cells].iter().enumerate() {
                        for channel in 0..channels {
                            let lane = 2 * (cell * channels + channel);
                            // Exactly one vector supplies the first column.
                            let firsts: Vec<usize> = (0..2).filter(|&v| window.first[v][lane] != 0xFF).collect();
                            assert_eq!(firsts.len(), 1);
                            let value = firsts[0] * 8 + window.first[firsts[0]][lane] as usize / 2;
                            assert_eq!(value, (span.start - window.start) * channels + channel);
                            let seconds = (0..2).filter(|&v| window.second[v][lane] != 0xFF).count();
                            assert_eq!(seconds, (span.len() == 2) as usize);
                        }
                        assert!((span.end - window.start) * channels <= WINDOW_VALUES);
                    }
                    next += window.cells;
                }
            }
        }
        assert!(windows(&spans(640, 100), 1).is_empty());
    }

    #[test]
    fn powers_of_two_divide_exactly_in_sixteen_bits() {
        for count in [1usize, 2, 4, 8, 16, 32, 64, 128, 256] {
            let divisors = Divisors::of(&[count]);
            let (halves, factors) = divisors.powers_of_two.expect("a power of two");
            for sum in 0..=255 * count as u32 {
                let product = (sum + halves[0] as u32) * factors[0] as u32;
                assert!(product < 65_536);
                assert_eq!(product >> 8, (sum + count as u32 / 2) / count as u32, "sum {} count {}", sum, count);
            }
        }
        assert!(Divisors::of(&[2, 3]).powers_of_two.is_none());
        assert!(Divisors::of(&[512]).powers_of_two.is_none());
    }

    #[test]
    fn area_pieces_are_the_stretches_between_the_sorted_boundaries() {
        for width in 0..=4096 {
            let mut cuts: Vec<usize> = spans(width, 3).iter().flat_map(|span| [span.start, span.end]).collect();
            cuts.sort_unstable();
            cuts.dedup();
            let expected: Vec<Span> = cuts.windows(2).map(|pair| Span { start: pair[0], end: pair[1] }).collect();
            let pieces: Vec<Span> = area_pieces(width).iter().map(|piece| piece.span).collect();
            assert_eq!(pieces, expected, "width {}", width);
        }
    }

    #[test]
    fn area_pieces_tile_the_row() {
        let full = [true, false, false];
        assert_eq!(area_pieces(9).len(), 3);
        assert_eq!(area_pieces(9)[0], Piece { span: Span { start: 0, end: 3 }, area_columns: full });
        assert_eq!(area_pieces(160).iter().map(|p| p.span.len()).collect::<Vec<_>>(), vec![53, 53, 54]);
        assert_eq!(area_pieces(1), vec![Piece { span: Span { start: 0, end: 1 }, area_columns: [true; 3] }]);
        let two = area_pieces(2);
        assert_eq!(two[0].area_columns, [true, true, false]);
        assert_eq!(two[1].area_columns, [false, false, true]);
    }

    #[test]
    fn finish_row_averages_interleaved_channels() {
        for kernels in [&crate::kernels::SCALAR, &crate::kernels::SIMD] {
            let mut grid = BoxGrid::new(4, 2, 2, 1, 2);
            // Two source rows already summed: columns of (a, b) pairs.
            let columns = [2u16, 10, 4, 20, 6, 30, 9, 40];
            let mut out = [0u8; 4];
            grid.finish_row(kernels, 0, &columns, &mut out);
            assert_eq!(out, [2, 8, 4, 18], "{}", kernels.name);
        }
    }

    #[test]
    fn float_means_equal_rounded_division_for_every_count() {
        type Means = fn(&[u32], &[u32], &[f32], &mut [u8]);
        let variants: [(&str, Means); 2] =
            [("scalar", crate::kernels::scalar::means), ("simd128", crate::kernels::simd::means)];
        for (name, means) in variants {
            for count in 1..=41 * 41u32 {
                // Rounding flips where sum + count / 2 crosses a multiple of
                // count: test each side of every such point.
                let mut sums = Vec::new();
                for quotient in 0..=255u32 {
                    let base = quotient * count;
                    for sum in [
                        base.saturating_sub(count / 2 + 1),
                        base.saturating_sub(count / 2),
                        base + count / 2,
                        base + count - 1,
                    ] {
                        if sum <= 255 * count {
                            sums.push(sum);
                        }
                    }
                }
                let halves = vec![count / 2; sums.len()];
                let inverses = vec![1.0 / count as f32; sums.len()];
                let mut out = vec![0u8; sums.len()];
                means(&sums, &halves, &inverses, &mut out);
                for (sum, mean) in sums.iter().zip(&out) {
                    assert_eq!(*mean as u32, (sum + count / 2) / count, "{} sum {} count {}", name, sum, count);
                }
            }
        }
    }
}
