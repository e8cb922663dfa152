//! The real wasm32 simd128 intrinsics, plus safe slice loads and stores.

pub use core::arch::wasm32::u32x4_splat;
pub use core::arch::wasm32::{
    i32x4_shuffle, i64x2_shuffle, u16x8_add, u16x8_extadd_pairwise_u8x16, u16x8_extend_high_u8x16,
    u16x8_extend_low_u8x16, u32x4_add, u32x4_extadd_pairwise_u16x8, u8x16_add_sat, u8x16_avgr, u8x16_bitmask,
    u8x16_max, u8x16_narrow_i16x8, u8x16_splat, u8x16_sub_sat, u8x16_swizzle, v128, v128_and, v128_andnot, v128_or,
};
use core::arch::wasm32::{v128_load, v128_store};

/// The first 16 bytes of `bytes` (wasm loads need no alignment).
#[inline(always)]
pub fn load16(bytes: &[u8]) -> v128 {
    let bytes = &bytes[..16];
    // SAFETY: the slice above holds 16 readable bytes.
    unsafe { v128_load(bytes.as_ptr() as *const v128) }
}

/// Writes the vector to the first 16 bytes of `bytes`.
#[inline(always)]
pub fn store16(bytes: &mut [u8], value: v128) {
    let bytes = &mut bytes[..16];
    // SAFETY: the slice above holds 16 writable bytes.
    unsafe { v128_store(bytes.as_mut_ptr() as *mut v128, value) }
}

#[inline(always)]
pub fn zero() -> v128 {
    u32x4_splat(0)
}

#[inline(always)]
pub fn to_u32x4(value: v128) -> [u32; 4] {
    let mut out = [0u8; 16];
    store16(&mut out, value);
    [
        u32::from_le_bytes([out[0], out[1], out[2], out[3]]),
        u32::from_le_bytes([out[4], out[5], out[6], out[7]]),
        u32::from_le_bytes([out[8], out[9], out[10], out[11]]),
        u32::from_le_bytes([out[12], out[13], out[14], out[15]]),
    ]
}

#[inline(always)]
pub fn to_u8x16(value: v128) -> [u8; 16] {
    let mut out = [0u8; 16];
    store16(&mut out, value);
    out
}

/// Eight 16-bit lanes from the first eight values of `values`.
#[inline(always)]
pub fn load_u16x8(values: &[u16]) -> v128 {
    let values = &values[..8];
    // SAFETY: the slice above holds 16 readable bytes.
    unsafe { v128_load(values.as_ptr() as *const v128) }
}

/// Writes eight 16-bit lanes to the first eight values of `values`.
#[inline(always)]
pub fn store_u16x8(values: &mut [u16], value: v128) {
    let values = &mut values[..8];
    // SAFETY: the slice above holds 16 writable bytes.
    unsafe { v128_store(values.as_mut_ptr() as *mut v128, value) }
}

use core::arch::wasm32::v128_load64_zero;
pub use core::arch::wasm32::{
    f32x4_add, f32x4_convert_i32x4, f32x4_floor, f32x4_mul, f32x4_splat, i16x8_narrow_i32x4, u16x8_mul, u16x8_shr,
    u32x4_extend_high_u16x8, u32x4_extend_low_u16x8, u32x4_sub,
};

/// Four 16-bit values in the low lanes, zeros above.
#[inline(always)]
pub fn load_u16x4_zero(values: &[u16]) -> v128 {
    let values = &values[..4];
    // SAFETY: the slice above holds 8 readable bytes.
    unsafe { v128_load64_zero(values.as_ptr() as *const u64) }
}

/// Four 32-bit lanes from the first four values of `values`.
#[inline(always)]
pub fn load_u32x4(values: &[u32]) -> v128 {
    let values = &values[..4];
    // SAFETY: the slice above holds 16 readable bytes.
    unsafe { v128_load(values.as_ptr() as *const v128) }
}

/// Four `f32` lanes from the first four values of `values`.
#[inline(always)]
pub fn load_f32x4(values: &[f32]) -> v128 {
    let values = &values[..4];
    // SAFETY: the slice above holds 16 readable bytes.
    unsafe { v128_load(values.as_ptr() as *const v128) }
}

/// Writes four 32-bit lanes to the first four values of `values`.
#[inline(always)]
pub fn store_u32x4(values: &mut [u32], value: v128) {
    let values = &mut values[..4];
    // SAFETY: the slice above holds 16 writable bytes.
    unsafe { v128_store(values.as_mut_ptr() as *mut v128, value) }
}

pub use core::arch::wasm32::{f32x4_ge, i32x4_lt, i32x4_ne, u32x4_shr, u8x16_sub, v128_any_true, v128_bitselect};

/// Four 32-bit lanes from `pointer`, unchecked.
///
/// # Safety
///
/// The four values from `pointer` must be readable.
#[inline(always)]
pub unsafe fn load_u32x4_at(pointer: *const u32) -> v128 {
    v128_load(pointer as *const v128)
}
