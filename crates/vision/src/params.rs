//! The analysis constants; docs/vision.md states what each one decides.

/// No-motion threshold on the motion score (mean absolute luma difference).
pub const NO_MOTION_THRESHOLD: f64 = 1.5;
/// iOS cameras are noisier and re-expose more, so they get a higher threshold.
pub const NO_MOTION_THRESHOLD_IOS: f64 = 3.5;
/// Seconds of low motion before the no-motion event.
pub const NO_MOTION_COUNT_S: u32 = 180;
/// The stricter count for sleepers.
pub const NO_MOTION_COUNT_SLEEPER_S: u32 = 90;
/// Seconds with no face found before the away event: the no-motion count, so that an empty seat is noticed as soon as a still one.
pub const AWAY_COUNT_S: u32 = 180;
/// The away count for sleepers.
pub const AWAY_COUNT_SLEEPER_S: u32 = 90;
/// Seconds of darkness before the darkness event.
pub const DARKNESS_COUNT_S: u32 = 30;
/// Reversals of the head's vertical movement that make nodding: three nods (a sink and a jerk back up each) in a row.
pub const NODDING_COUNT: u32 = 5;
/// A nod: a jerk back up of at least this many face sides in one sample, after a sink of as much.
pub const NOD_FACE_DROP: f64 = 0.25;
/// A sink is gradual when each of its two last samples lowered the face by at least this many face sides.
pub const NOD_FACE_SINK_STEP: f64 = 0.04;
/// The window the nods are counted in.
pub const NOD_WINDOW_MS: f64 = 90_000.0;
/// A pixel changed when its luma moved by more than this.
pub const PIXEL_CHANGE_THRESHOLD: u8 = 25;
/// A frame is dark when its mean luma is below this.
pub const DARK_MEAN_LUMA: f64 = 40.0;
/// A frame or thumbnail is all black when no luma is above this.
pub const ALL_BLACK_MAX_LUMA: u8 = 16;
/// An area changed when a channel of its mean colour moved by more than this.
pub const AREA_COLOUR_THRESHOLD: u8 = 50;
/// Areas per side of the grid.
pub const AREA_GRID: usize = 3;
/// Side of the whitelist thumbnail and of the patrol thumbnail's long side.
pub const THUMBNAIL_SIZE: usize = 100;
/// Whitelist match threshold on the mean absolute difference.
pub const WHITELIST_MATCH_THRESHOLD: u32 = 20;
/// At most this many whitelist images.
pub const MAX_WHITELIST: usize = 64;
/// A frame adds at most this much to a run: a device that slept does not
/// count its sleep as stillness.
pub const MAX_FRAME_GAP_MS: f64 = 2_000.0;
/// The first frame of a session counts as one sampling interval.
pub const FRAME_INTERVAL_MS: f64 = 1_000.0;
/// The largest frame side accepted.
pub const MAX_SIDE: u32 = 4096;
/// Faces are searched in the frame box-filtered to at most this width, in pixels: a face a quarter of a 640 px frame's width is still 40 px there, and the search costs a sixteenth.
pub const FACE_SEARCH_WIDTH: usize = 160;
/// The smallest face looked for, in pixels of the search width: pyramid levels whose window is smaller are not scanned (a guest at a laptop is far larger).
pub const FACE_MIN_SIZE: f32 = 28.0;
/// Each pyramid level of the face search is this much smaller than the one before.
pub const FACE_SCALE_FACTOR: f32 = 1.1;
/// Pyramid levels below this scale are scanned every second pixel (a window every second column and row), the others at every pixel.
pub const FACE_DENSE_SCALE: f32 = 2.0;
/// A group of cascade hits is a face when it has more than this many.
pub const FACE_MIN_NEIGHBOURS: usize = 3;
/// How far apart two hits may be, as a share of their size, and be one face.
pub const FACE_GROUP_EPS: f32 = 0.2;

/// Luma with weights 1/4, 1/2, 1/4: the rounded average of green and of the
/// rounded average of red and blue. It is within a few levels of BT.601 on
/// natural scenes, which is all motion and darkness need, and it is two
/// SIMD instructions (`avgr`) where the BT.601 products take fifteen.
#[inline(always)]
pub fn luma(r: u8, g: u8, b: u8) -> u8 {
    let red_blue = (r as u16 + b as u16 + 1) >> 1;
    ((red_blue + g as u16 + 1) >> 1) as u8
}
