//! The result record's layout: where each field sits and what each bit
//! means (docs/vision.md, "The wasm boundary"). `scripts/vision-params.mjs`
//! writes these to `src/client/vision/layout.generated.ts`, so the crate, the
//! worker, the JavaScript fallback and the tests read one definition.

/// Words in the result record.
pub const RESULT_WORDS: usize = 24;
/// Word: the flag bits below.
pub const WORD_FLAGS: usize = 0;
/// Word: the event bits below.
pub const WORD_EVENTS: usize = 1;
/// Word (f32): the mean absolute luma difference with the previous frame.
pub const WORD_MOTION_SCORE: usize = 2;
/// Word (f32): the share of pixels whose luma changed by more than the pixel change threshold.
pub const WORD_CHANGED_RATIO: usize = 3;
/// Word (f32): the mean luma.
pub const WORD_MEAN_LUMA: usize = 4;
/// Word (f32): the motion centroid's x, a fraction of the width (0 when none).
pub const WORD_CENTROID_X: usize = 5;
/// Word (f32): the motion centroid's y, a fraction of the height (0 when none).
pub const WORD_CENTROID_Y: usize = 6;
/// Word (u32): the nodding count (reversals of the head in the nods of the nod window).
pub const WORD_NODDING_COUNT: usize = 7;
/// Word (i32): the closest whitelist image, -1 with none.
pub const WORD_WHITELIST_INDEX: usize = 8;
/// Word (f32): the closest whitelist image's score.
pub const WORD_WHITELIST_SCORE: usize = 9;
/// Word (u32): bit `i` set when area `i` changed.
pub const WORD_AREAS_CHANGED: usize = 10;
/// Word (u32): the low-motion run, ms.
pub const WORD_LOW_MOTION_MS: usize = 11;
/// Word (u32): the dark run, ms.
pub const WORD_DARK_MS: usize = 12;
/// First word of the area mean colours: r, g, b bytes for each area in turn.
pub const WORD_AREA_MEANS: usize = 13;
/// Word (f32): the face's centre x, a fraction of the width (0 when none).
pub const WORD_FACE_X: usize = 20;
/// Word (f32): the face's centre y, a fraction of the height (0 when none).
pub const WORD_FACE_Y: usize = 21;
/// Word (f32): the face's side, a fraction of the width (0 when none).
pub const WORD_FACE_SIZE: usize = 22;
/// Word (u32): the no-face run, ms.
pub const WORD_NO_FACE_MS: usize = 23;

/// Flag: the frame has a previous frame to compare with.
pub const FLAG_HAS_PREVIOUS: u32 = 1;
/// Flag: the mean luma is below the dark mean luma.
pub const FLAG_DARK: u32 = 2;
/// Flag: no luma is above the all-black luma.
pub const FLAG_ALL_BLACK: u32 = 4;
/// Flag: the frame matches a whitelist image.
pub const FLAG_WHITELISTED: u32 = 8;
/// Flag: enough pixels changed for a motion centroid.
pub const FLAG_HAS_CENTROID: u32 = 16;
/// Flag: a face was found in this frame.
pub const FLAG_FACE: u32 = 32;
/// Flag: a face model is loaded, so an absent face means no face was found.
pub const FLAG_FACE_DETECTOR: u32 = 64;

/// Event: no motion for the no-motion count.
pub const EVENT_NO_MOTION: u32 = 1;
/// Event: motion again after a no-motion event.
pub const EVENT_MOTION: u32 = 2;
/// Event: dark for the darkness count.
pub const EVENT_DARKNESS: u32 = 4;
/// Event: the nodding count reached.
pub const EVENT_NODDING: u32 = 8;
/// Event: no face for the away count.
pub const EVENT_AWAY: u32 = 16;
/// Event: a face found again after an away event.
pub const EVENT_BACK: u32 = 32;
