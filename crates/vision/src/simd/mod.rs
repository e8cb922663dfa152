//! The 128-bit SIMD operations the kernels use, under the names of
//! `core::arch::wasm32`. On wasm32 with simd128 they are the real intrinsics;
//! everywhere else a lane-by-lane emulation with the same semantics, so that
//! native `cargo test` runs the very same SIMD kernels that ship in the wasm.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub use wasm::*;

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod emulated;
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub use emulated::*;
