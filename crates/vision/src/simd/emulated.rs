//! A lane-by-lane emulation of the wasm32 simd128 operations the kernels use,
//! following the WebAssembly SIMD specification's semantics. It exists so
//! that native tests exercise the SIMD kernels themselves.

#![allow(non_camel_case_types)]

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct v128([u8; 16]);

impl v128 {
    fn u16_lanes(self) -> [u16; 8] {
        let mut lanes = [0u16; 8];
        for (i, lane) in lanes.iter_mut().enumerate() {
            *lane = u16::from_le_bytes([self.0[2 * i], self.0[2 * i + 1]]);
        }
        lanes
    }

    fn from_u16_lanes(lanes: [u16; 8]) -> v128 {
        let mut bytes = [0u8; 16];
        for (i, lane) in lanes.iter().enumerate() {
            bytes[2 * i..2 * i + 2].copy_from_slice(&lane.to_le_bytes());
        }
        v128(bytes)
    }

    fn u32_lanes(self) -> [u32; 4] {
        let mut lanes = [0u32; 4];
        for (i, lane) in lanes.iter_mut().enumerate() {
            let b = &self.0[4 * i..4 * i + 4];
            *lane = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        lanes
    }

    fn from_u32_lanes(lanes: [u32; 4]) -> v128 {
        let mut bytes = [0u8; 16];
        for (i, lane) in lanes.iter().enumerate() {
            bytes[4 * i..4 * i + 4].copy_from_slice(&lane.to_le_bytes());
        }
        v128(bytes)
    }

    fn map_u8(self, other: v128, f: impl Fn(u8, u8) -> u8) -> v128 {
        let mut bytes = [0u8; 16];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = f(self.0[i], other.0[i]);
        }
        v128(bytes)
    }
}

pub fn load16(bytes: &[u8]) -> v128 {
    let mut lanes = [0u8; 16];
    lanes.copy_from_slice(&bytes[..16]);
    v128(lanes)
}

pub fn store16(bytes: &mut [u8], value: v128) {
    bytes[..16].copy_from_slice(&value.0);
}

pub fn load_u16x8(values: &[u16]) -> v128 {
    let mut lanes = [0u16; 8];
    lanes.copy_from_slice(&values[..8]);
    v128::from_u16_lanes(lanes)
}

pub fn store_u16x8(values: &mut [u16], value: v128) {
    values[..8].copy_from_slice(&value.u16_lanes());
}

pub fn load_u32x4(values: &[u32]) -> v128 {
    v128::from_u32_lanes([values[0], values[1], values[2], values[3]])
}

/// Four 32-bit lanes from `pointer`, unchecked.
///
/// # Safety
///
/// The four values from `pointer` must be readable.
pub unsafe fn load_u32x4_at(pointer: *const u32) -> v128 {
    load_u32x4(core::slice::from_raw_parts(pointer, 4))
}

pub fn load_u16x4_zero(values: &[u16]) -> v128 {
    v128::from_u16_lanes([values[0], values[1], values[2], values[3], 0, 0, 0, 0])
}

pub fn store_u32x4(values: &mut [u32], value: v128) {
    values[..4].copy_from_slice(&value.u32_lanes());
}

pub fn load_f32x4(values: &[f32]) -> v128 {
    v128::from_u32_lanes([values[0].to_bits(), values[1].to_bits(), values[2].to_bits(), values[3].to_bits()])
}

pub fn zero() -> v128 {
    v128([0; 16])
}

pub fn to_u32x4(value: v128) -> [u32; 4] {
    value.u32_lanes()
}

pub fn to_u8x16(value: v128) -> [u8; 16] {
    value.0
}

pub fn u32x4_splat(value: u32) -> v128 {
    v128::from_u32_lanes([value; 4])
}

pub fn u8x16_splat(value: u8) -> v128 {
    v128([value; 16])
}

/// Picks bytes of `a` by the indices in `s`; an index past 15 gives 0.
pub fn u8x16_swizzle(a: v128, s: v128) -> v128 {
    let mut bytes = [0u8; 16];
    for (byte, index) in bytes.iter_mut().zip(s.0) {
        *byte = if index < 16 { a.0[index as usize] } else { 0 };
    }
    v128(bytes)
}

pub fn u8x16_add_sat(a: v128, b: v128) -> v128 {
    a.map_u8(b, u8::saturating_add)
}

pub fn i32x4_shuffle<const I0: usize, const I1: usize, const I2: usize, const I3: usize>(a: v128, b: v128) -> v128 {
    let (a, b) = (a.u32_lanes(), b.u32_lanes());
    let both = |i: usize| if i < 4 { a[i] } else { b[i - 4] };
    v128::from_u32_lanes([both(I0), both(I1), both(I2), both(I3)])
}

pub fn i64x2_shuffle<const I0: usize, const I1: usize>(a: v128, b: v128) -> v128 {
    let half = |i: usize| if i < 2 { &a.0[8 * i..8 * i + 8] } else { &b.0[8 * (i - 2)..8 * (i - 2) + 8] };
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(half(I0));
    bytes[8..].copy_from_slice(half(I1));
    v128(bytes)
}

pub fn u16x8_mul(a: v128, b: v128) -> v128 {
    let (a, b) = (a.u16_lanes(), b.u16_lanes());
    let mut lanes = [0u16; 8];
    for (i, lane) in lanes.iter_mut().enumerate() {
        *lane = a[i].wrapping_mul(b[i]);
    }
    v128::from_u16_lanes(lanes)
}

pub fn u16x8_shr(a: v128, shift: u32) -> v128 {
    let mut lanes = a.u16_lanes();
    for lane in lanes.iter_mut() {
        *lane >>= shift % 16;
    }
    v128::from_u16_lanes(lanes)
}

pub fn u16x8_add(a: v128, b: v128) -> v128 {
    let (a, b) = (a.u16_lanes(), b.u16_lanes());
    let mut lanes = [0u16; 8];
    for (i, lane) in lanes.iter_mut().enumerate() {
        *lane = a[i].wrapping_add(b[i]);
    }
    v128::from_u16_lanes(lanes)
}

/// Signed 16-bit lanes narrowed to unsigned bytes with saturation.
pub fn u8x16_narrow_i16x8(a: v128, b: v128) -> v128 {
    let saturate = |lane: u16| (lane as i16).clamp(0, 255) as u8;
    let (a, b) = (a.u16_lanes(), b.u16_lanes());
    let mut bytes = [0u8; 16];
    for i in 0..8 {
        bytes[i] = saturate(a[i]);
        bytes[i + 8] = saturate(b[i]);
    }
    v128(bytes)
}

pub fn u8x16_sub_sat(a: v128, b: v128) -> v128 {
    a.map_u8(b, u8::saturating_sub)
}

/// Rounding average: `(a + b + 1) >> 1` without overflow.
pub fn u8x16_avgr(a: v128, b: v128) -> v128 {
    a.map_u8(b, |x, y| ((x as u16 + y as u16 + 1) >> 1) as u8)
}

pub fn u8x16_max(a: v128, b: v128) -> v128 {
    a.map_u8(b, u8::max)
}

pub fn v128_and(a: v128, b: v128) -> v128 {
    a.map_u8(b, |x, y| x & y)
}

/// `a & !b`.
pub fn v128_andnot(a: v128, b: v128) -> v128 {
    a.map_u8(b, |x, y| x & !y)
}

pub fn v128_or(a: v128, b: v128) -> v128 {
    a.map_u8(b, |x, y| x | y)
}

pub fn u8x16_bitmask(a: v128) -> u16 {
    a.0.iter().enumerate().fold(0, |mask, (i, byte)| mask | (((byte >> 7) as u16) << i))
}

pub fn u16x8_extadd_pairwise_u8x16(a: v128) -> v128 {
    let mut lanes = [0u16; 8];
    for (i, lane) in lanes.iter_mut().enumerate() {
        *lane = a.0[2 * i] as u16 + a.0[2 * i + 1] as u16;
    }
    v128::from_u16_lanes(lanes)
}

pub fn u32x4_extadd_pairwise_u16x8(a: v128) -> v128 {
    let a = a.u16_lanes();
    let mut lanes = [0u32; 4];
    for (i, lane) in lanes.iter_mut().enumerate() {
        *lane = a[2 * i] as u32 + a[2 * i + 1] as u32;
    }
    v128::from_u32_lanes(lanes)
}

pub fn u32x4_add(a: v128, b: v128) -> v128 {
    let (a, b) = (a.u32_lanes(), b.u32_lanes());
    v128::from_u32_lanes([
        a[0].wrapping_add(b[0]),
        a[1].wrapping_add(b[1]),
        a[2].wrapping_add(b[2]),
        a[3].wrapping_add(b[3]),
    ])
}

pub fn u16x8_extend_low_u8x16(a: v128) -> v128 {
    let mut lanes = [0u16; 8];
    for (i, lane) in lanes.iter_mut().enumerate() {
        *lane = a.0[i] as u16;
    }
    v128::from_u16_lanes(lanes)
}

pub fn u16x8_extend_high_u8x16(a: v128) -> v128 {
    let mut lanes = [0u16; 8];
    for (i, lane) in lanes.iter_mut().enumerate() {
        *lane = a.0[i + 8] as u16;
    }
    v128::from_u16_lanes(lanes)
}

fn map_f32(a: v128, b: v128, f: impl Fn(f32, f32) -> f32) -> v128 {
    let (a, b) = (a.u32_lanes(), b.u32_lanes());
    let mut lanes = [0u32; 4];
    for (i, lane) in lanes.iter_mut().enumerate() {
        *lane = f(f32::from_bits(a[i]), f32::from_bits(b[i])).to_bits();
    }
    v128::from_u32_lanes(lanes)
}

pub fn f32x4_splat(value: f32) -> v128 {
    v128::from_u32_lanes([value.to_bits(); 4])
}

pub fn f32x4_add(a: v128, b: v128) -> v128 {
    map_f32(a, b, |x, y| x + y)
}

pub fn f32x4_mul(a: v128, b: v128) -> v128 {
    map_f32(a, b, |x, y| x * y)
}

pub fn f32x4_convert_i32x4(a: v128) -> v128 {
    let lanes = a.u32_lanes();
    v128::from_u32_lanes([
        (lanes[0] as i32 as f32).to_bits(),
        (lanes[1] as i32 as f32).to_bits(),
        (lanes[2] as i32 as f32).to_bits(),
        (lanes[3] as i32 as f32).to_bits(),
    ])
}

pub fn f32x4_floor(a: v128) -> v128 {
    let lanes = a.u32_lanes();
    v128::from_u32_lanes([
        f32::from_bits(lanes[0]).floor().to_bits(),
        f32::from_bits(lanes[1]).floor().to_bits(),
        f32::from_bits(lanes[2]).floor().to_bits(),
        f32::from_bits(lanes[3]).floor().to_bits(),
    ])
}

pub fn u32x4_sub(a: v128, b: v128) -> v128 {
    let (a, b) = (a.u32_lanes(), b.u32_lanes());
    v128::from_u32_lanes([
        a[0].wrapping_sub(b[0]),
        a[1].wrapping_sub(b[1]),
        a[2].wrapping_sub(b[2]),
        a[3].wrapping_sub(b[3]),
    ])
}

pub fn u32x4_extend_low_u16x8(a: v128) -> v128 {
    let a = a.u16_lanes();
    v128::from_u32_lanes([a[0] as u32, a[1] as u32, a[2] as u32, a[3] as u32])
}

pub fn u32x4_extend_high_u16x8(a: v128) -> v128 {
    let a = a.u16_lanes();
    v128::from_u32_lanes([a[4] as u32, a[5] as u32, a[6] as u32, a[7] as u32])
}

/// Signed 32-bit lanes narrowed to signed 16 bits with saturation.
pub fn i16x8_narrow_i32x4(a: v128, b: v128) -> v128 {
    let saturate = |lane: u32| (lane as i32).max(i16::MIN as i32).min(i16::MAX as i32) as i16 as u16;
    let (a, b) = (a.u32_lanes(), b.u32_lanes());
    v128::from_u16_lanes([
        saturate(a[0]),
        saturate(a[1]),
        saturate(a[2]),
        saturate(a[3]),
        saturate(b[0]),
        saturate(b[1]),
        saturate(b[2]),
        saturate(b[3]),
    ])
}

/// All ones in each lane where `a >= b` as signed 32-bit values.
pub fn i32x4_lt(a: v128, b: v128) -> v128 {
    let (a, b) = (a.u32_lanes(), b.u32_lanes());
    v128::from_u32_lanes([0, 1, 2, 3].map(|i| if (a[i] as i32) < b[i] as i32 { u32::MAX } else { 0 }))
}

pub fn i32x4_ne(a: v128, b: v128) -> v128 {
    let (a, b) = (a.u32_lanes(), b.u32_lanes());
    v128::from_u32_lanes([0, 1, 2, 3].map(|i| if a[i] != b[i] { u32::MAX } else { 0 }))
}

/// All ones in each lane where `a >= b` as `f32` (never for a NaN).
pub fn f32x4_ge(a: v128, b: v128) -> v128 {
    let (a, b) = (a.u32_lanes(), b.u32_lanes());
    v128::from_u32_lanes([0, 1, 2, 3].map(|i| if f32::from_bits(a[i]) >= f32::from_bits(b[i]) { u32::MAX } else { 0 }))
}

pub fn u32x4_shr(a: v128, shift: u32) -> v128 {
    v128::from_u32_lanes(a.u32_lanes().map(|lane| lane >> (shift % 32)))
}

pub fn u8x16_sub(a: v128, b: v128) -> v128 {
    a.map_u8(b, u8::wrapping_sub)
}

/// The bits of `a` where `mask` is set, else those of `b`.
pub fn v128_bitselect(a: v128, b: v128, mask: v128) -> v128 {
    v128_or(v128_and(a, mask), v128_andnot(b, mask))
}

pub fn v128_any_true(a: v128) -> bool {
    a.0.iter().any(|&byte| byte != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(start: u8) -> v128 {
        let mut lanes = [0u8; 16];
        for (i, lane) in lanes.iter_mut().enumerate() {
            *lane = start.wrapping_add(i as u8 * 17);
        }
        v128(lanes)
    }

    #[test]
    fn shuffles_pick_lanes_from_both_operands() {
        let (a, b) = (bytes(0), bytes(100));
        let mut indices = [0u8; 16];
        indices[1] = 15;
        indices[2] = 16;
        indices[3] = 200;
        let picked = u8x16_swizzle(a, v128(indices));
        assert_eq!(picked.0[..4], [a.0[0], a.0[15], 0, 0]);
        let words = i32x4_shuffle::<0, 4, 1, 5>(a, b);
        assert_eq!(words.0[4..8], b.0[0..4]);
        let halves = i64x2_shuffle::<1, 2>(a, b);
        assert_eq!(halves.0[..8], a.0[8..]);
        assert_eq!(halves.0[8..], b.0[..8]);
    }

    #[test]
    fn narrow_saturates_signed_lanes() {
        let lanes = v128::from_u16_lanes([0, 255, 256, 0x8000, 0xFFFF, 7, 300, 1]);
        let narrowed = u8x16_narrow_i16x8(lanes, lanes);
        assert_eq!(narrowed.0[..8], [0, 255, 255, 0, 0, 7, 255, 1]);
    }

    #[test]
    fn float_lanes_round_and_truncate_like_scalar_code() {
        let values = v128::from_u32_lanes([0, 7, 16_777_215, 3]);
        let floats = f32x4_floor(f32x4_mul(f32x4_convert_i32x4(values), f32x4_splat(0.5)));
        let floors: Vec<f32> = floats.u32_lanes().iter().map(|bits| f32::from_bits(*bits)).collect();
        assert_eq!(floors, vec![0.0, 3.0, 8_388_607.0, 1.0]);
        assert_eq!(u32x4_sub(u32x4_splat(5), u32x4_splat(7)).u32_lanes(), [u32::MAX - 1; 4]);
        let wide = v128::from_u32_lanes([70_000, 5, u32::MAX, 255]);
        assert_eq!(i16x8_narrow_i32x4(wide, wide).u16_lanes()[..4], [32_767, 5, 0xFFFF, 255]);
    }

    #[test]
    fn bitmask_reads_top_bits() {
        let mut lanes = [0u8; 16];
        lanes[0] = 0x80;
        lanes[15] = 0xFF;
        lanes[3] = 0x7F;
        assert_eq!(u8x16_bitmask(v128(lanes)), 0b1000_0000_0000_0001);
    }

    #[test]
    fn widening_arithmetic() {
        let a = u8x16_splat(255);
        assert_eq!(u16x8_extadd_pairwise_u8x16(a).u16_lanes(), [510; 8]);
        assert_eq!(u32x4_extadd_pairwise_u16x8(v128::from_u16_lanes([65535; 8])).u32_lanes(), [131070; 4]);
        assert_eq!(u8x16_sub_sat(u8x16_splat(3), u8x16_splat(5)).0, [0; 16]);
        assert_eq!(u8x16_add_sat(u8x16_splat(200), u8x16_splat(100)).0, [255; 16]);
        assert_eq!(u8x16_avgr(u8x16_splat(255), u8x16_splat(254)).0, [255; 16]);
        assert_eq!(u8x16_avgr(u8x16_splat(0), u8x16_splat(1)).0, [1; 16]);
    }
}
