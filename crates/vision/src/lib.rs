//! Warden's on-device camera analysis (docs/vision.md).
//!
//! An [`Analyser`] is made per jail session and fed one RGBA frame a second.
//! Each frame takes one fused pass: luma, the difference against the previous
//! frame's luma, changed pixels and their centroid, and a box filter to the
//! 100x100 grid that gives the 3x3 area colours and the whitelist thumbnail.
//! The event rules then decide what is due: no motion, motion, darkness,
//! nodding. A separate call makes the patrol thumbnail.
//!
//! The kernels have a scalar path and a wasm32 simd128 path; the exports in
//! [`ffi`] are plain C ABI over linear memory.

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod allocator;
pub mod analyser;
pub mod events;
pub mod face;
pub mod ffi;
pub mod grid;
pub mod kernels;
pub mod layout;
pub mod params;
// The SIMD operations: real on wasm32 with simd128, emulated for native tests.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
mod simd;
#[cfg(test)]
mod testing;

pub use analyser::{Analyser, FrameResult, Patrol};
