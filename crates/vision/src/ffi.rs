//! The C-ABI exports over linear memory (docs/vision.md, "The wasm
//! boundary"). The caller owns the analyser handle; every function accepts a
//! null handle and answers with null.

use crate::analyser::Analyser;
use std::ptr::{null, null_mut};

/// A new analyser, or null for an unsupported size.
#[no_mangle]
pub extern "C" fn vision_analyser_new(width: u32, height: u32, is_ios: u32, is_sleeper: u32) -> *mut Analyser {
    match Analyser::new(width, height, is_ios != 0, is_sleeper != 0) {
        Some(analyser) => Box::into_raw(Box::new(analyser)),
        None => null_mut(),
    }
}

/// # Safety
/// `analyser` is null or a handle from `vision_analyser_new` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn vision_analyser_free(analyser: *mut Analyser) {
    if !analyser.is_null() {
        drop(Box::from_raw(analyser));
    }
}

/// # Safety
/// `analyser` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn vision_frame_buffer(analyser: *mut Analyser) -> *mut u8 {
    analyser.as_mut().map_or(null_mut(), |analyser| analyser.frame_mut().as_mut_ptr())
}

/// # Safety
/// `analyser` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn vision_process(analyser: *mut Analyser, time_ms: f64) -> *const u32 {
    analyser.as_mut().map_or(null(), |analyser| {
        analyser.process(time_ms);
        analyser.result_words().as_ptr()
    })
}

/// # Safety
/// `analyser` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn vision_whitelist_buffer(analyser: *mut Analyser, count: u32) -> *mut u8 {
    analyser
        .as_mut()
        .and_then(|analyser| analyser.whitelist_mut(count as usize))
        .map_or(null_mut(), |images| images.as_mut_ptr())
}

/// # Safety
/// `analyser` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn vision_patrol(analyser: *mut Analyser) -> *const usize {
    analyser.as_mut().map_or(null(), |analyser| analyser.patrol_record().as_ptr())
}

/// # Safety
/// `analyser` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn vision_thumbnail(analyser: *mut Analyser) -> *const u8 {
    analyser.as_ref().map_or(null(), |analyser| analyser.thumbnail().as_ptr())
}

/// Room for `length` bytes of face model to write before
/// `vision_face_model_load`; null for 0 or over the limit (1 MB).
///
/// # Safety
/// `analyser` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn vision_face_model_buffer(analyser: *mut Analyser, length: u32) -> *mut u8 {
    analyser
        .as_mut()
        .and_then(|analyser| analyser.face_model_mut(length as usize))
        .map_or(null_mut(), |bytes| bytes.as_mut_ptr())
}

/// Parses the face model written and uses it: 1 when it is in use, else 0.
///
/// # Safety
/// `analyser` is null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn vision_face_model_load(analyser: *mut Analyser) -> u32 {
    analyser.as_mut().map_or(0, |analyser| analyser.load_face_model() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exports_round_trip_a_frame() {
        unsafe {
            assert!(vision_analyser_new(0, 10, 0, 0).is_null());
            assert!(vision_analyser_new(4097, 10, 0, 0).is_null());
            assert!(vision_process(null_mut(), 0.0).is_null());
            let analyser = vision_analyser_new(3, 2, 0, 0);
            assert!(!analyser.is_null());
            let frame = std::slice::from_raw_parts_mut(vision_frame_buffer(analyser), 3 * 2 * 4);
            frame.copy_from_slice(&crate::testing::flat(3, 2, [255, 255, 255]));
            let words = std::slice::from_raw_parts(vision_process(analyser, 0.0), 20);
            assert_eq!(f32::from_bits(words[4]), 255.0);
            assert!(vision_whitelist_buffer(analyser, 65).is_null());
            assert!(!vision_whitelist_buffer(analyser, 1).is_null());
            let patrol = std::slice::from_raw_parts(vision_patrol(analyser), 4);
            assert_eq!((patrol[0], patrol[1], patrol[2]), (3, 2, 0));
            let pixels = std::slice::from_raw_parts(patrol[3] as *const u8, 3 * 2 * 4);
            assert!(pixels.iter().all(|&byte| byte == 255));
            let thumbnail = std::slice::from_raw_parts(vision_thumbnail(analyser), 10_000);
            assert!(thumbnail.iter().all(|&byte| byte == 255));
            vision_analyser_free(analyser);
            vision_analyser_free(null_mut());
        }
    }

    #[test]
    fn the_face_model_exports_load_only_a_model() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/pkg/face-model.bin");
        let model = std::fs::read(path).unwrap_or_else(|error| panic!("{}: {}", path, error));
        unsafe {
            assert!(vision_face_model_buffer(null_mut(), 10).is_null());
            assert_eq!(vision_face_model_load(null_mut()), 0);
            let analyser = vision_analyser_new(640, 480, 0, 0);
            assert!(vision_face_model_buffer(analyser, 0).is_null());
            assert!(vision_face_model_buffer(analyser, 1 << 20 | 1).is_null());
            assert_eq!(vision_face_model_load(analyser), 0, "nothing written");
            let garbage = std::slice::from_raw_parts_mut(vision_face_model_buffer(analyser, 100), 100);
            garbage.fill(7);
            assert_eq!(vision_face_model_load(analyser), 0, "garbage");
            let bytes =
                std::slice::from_raw_parts_mut(vision_face_model_buffer(analyser, model.len() as u32), model.len());
            bytes.copy_from_slice(&model);
            assert_eq!(vision_face_model_load(analyser), 1);
            let analyser = &mut *analyser;
            assert!(analyser.has_face_model());
            analyser.frame_mut().copy_from_slice(&crate::testing::flat(640, 480, [90, 120, 150]));
            analyser.process(0.0);
            assert_eq!(analyser.detect_face(), None);
            vision_analyser_free(analyser);
        }
    }
}
