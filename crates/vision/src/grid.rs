//! Box-filter geometry: which source pixels each output cell averages, and
//! exact rounded division by the cell sizes without a division per cell.

/// A half-open range of source pixels, `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

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

/// A box filter from a source frame to a `cols x rows` grid.
pub struct BoxGrid {
    pub cols: Vec<Span>,
    pub rows: Vec<Span>,
    /// `ceil(2^32 / n)` for every cell size `n` that occurs.
    reciprocals: Vec<u64>,
}

impl BoxGrid {
    pub fn new(width: usize, height: usize, cols: usize, rows: usize) -> BoxGrid {
        let cols = spans(width, cols);
        let rows = spans(height, rows);
        let largest = cols.iter().map(Span::len).max().unwrap_or(1) * rows.iter().map(Span::len).max().unwrap_or(1);
        let reciprocals = (0..=largest as u64)
            .map(|n| if n == 0 { 0 } else { ((1u64 << 32) + n - 1) / n })
            .collect();
        BoxGrid { cols, rows, reciprocals }
    }

    /// `(sum + count / 2) / count`, rounded half up, for a cell of `count`
    /// pixels of one 8-bit channel. Multiplying by `ceil(2^32 / count)` is
    /// exact while the numerator times the count stays below 2^32, which
    /// holds for counts up to 4096 (cells here are at most 41 x 41).
    #[inline(always)]
    pub fn mean(&self, sum: u32, count: usize) -> u8 {
        let numerator = (sum + count as u32 / 2) as u64;
        ((numerator * self.reciprocals[count]) >> 32) as u8
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
    fn reciprocal_means_equal_rounded_division_at_every_boundary() {
        let grid = BoxGrid { cols: vec![], rows: vec![], reciprocals: Vec::new() };
        let largest = 41 * 41;
        let grid = BoxGrid {
            reciprocals: (0..=largest as u64).map(|n| if n == 0 { 0 } else { ((1u64 << 32) + n - 1) / n }).collect(),
            ..grid
        };
        for count in 1..=largest {
            // Rounding flips where sum + count / 2 crosses a multiple of count.
            for quotient in 0..=255u32 {
                let base = quotient * count as u32;
                for sum in [base.saturating_sub(1), base, base + count as u32 / 2, base + count as u32 - 1] {
                    if sum > 255 * count as u32 {
                        continue;
                    }
                    let expected = (sum + count as u32 / 2) / count as u32;
                    assert_eq!(grid.mean(sum, count) as u32, expected, "sum {} count {}", sum, count);
                }
            }
        }
    }
}
