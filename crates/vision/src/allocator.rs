//! The wasm module's allocator (docs/vision.md, "The wasm boundary"): blocks
//! of power-of-two sizes, one free list a size, carved from memory grown
//! for them and never given back. It replaces std's dlmalloc, about 8 KB
//! of code (3 KB gzipped) for a module that allocates a few dozen buffers
//! when an analyser is made or a face model loaded and nothing per frame.
//!
//! A block of `2^c` bytes starts at a multiple of `min(2^c, 64 KiB)`, so it
//! suits any alignment up to its size; a layout's class is that of the
//! larger of its size and alignment. A freed block heads its size's list
//! (its first word the next one) and is the next block of that size handed
//! out; `realloc` within the same size keeps the block.

/// The smallest block: room for the free list's link, and 16-byte aligned.
const MIN_CLASS: u32 = 4;
/// WebAssembly's page.
const PAGE: usize = 65_536;

/// The size class (`log2` of the block size) of a layout's size and alignment.
pub fn class_of(size: usize, align: usize) -> u32 {
    let bytes = size.max(align).max(1 << MIN_CLASS);
    usize::BITS - (bytes - 1).leading_zeros()
}

/// Where a block of class `class` goes after `next` (`next` rounded up to
/// `min(2^class, PAGE)`) and where it ends; `None` when it would end in
/// the address space's last page (so that the memory's end, a page boundary
/// past it, is still an address).
pub fn place_of(next: usize, class: u32) -> Option<(usize, usize)> {
    let align = 1usize.checked_shl(class)?.min(PAGE);
    let start = next.checked_add(align - 1)? & !(align - 1);
    let end = start.checked_add(1 << class).filter(|&end| end <= usize::MAX - PAGE)?;
    Some((start, end))
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::{class_of, place_of, PAGE};
    use core::alloc::{GlobalAlloc, Layout};
    use core::arch::wasm32::{memory_grow, memory_size};
    use core::ptr::null_mut;

    struct Blocks;

    /// The head of each class's free list (0 for none), and the memory not
    /// yet carved: from `NEXT` to `END`. Single-threaded: the module has one.
    static mut FREE: [usize; 32] = [0; 32];
    static mut NEXT: usize = 0;
    static mut END: usize = 0;

    #[global_allocator]
    static ALLOCATOR: Blocks = Blocks;

    /// A block of class `class`: the last freed, or a new one. Not inlined:
    /// `alloc`, `alloc_zeroed` and `realloc` share it.
    #[inline(never)]
    unsafe fn block(class: u32) -> *mut u8 {
        if class >= 32 {
            return null_mut();
        }
        let head = FREE[class as usize];
        if head != 0 {
            FREE[class as usize] = *(head as *const usize);
            return head as *mut u8;
        }
        if END == 0 {
            // The memory the module starts with holds its data and stack.
            END = memory_size(0) * PAGE;
            NEXT = END;
        }
        let (start, end) = match place_of(NEXT, class) {
            Some(block) => block,
            None => return null_mut(),
        };
        if end > END {
            let pages = (end - END + PAGE - 1) / PAGE;
            if memory_grow(0, pages) == usize::MAX {
                return null_mut();
            }
            END += pages * PAGE;
        }
        NEXT = end;
        start as *mut u8
    }

    unsafe impl GlobalAlloc for Blocks {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            block(class_of(layout.size(), layout.align()))
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            let class = class_of(layout.size(), layout.align()) as usize;
            *(ptr as *mut usize) = FREE[class];
            FREE[class] = ptr as usize;
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            if class_of(new_size, layout.align()) == class_of(layout.size(), layout.align()) {
                return ptr;
            }
            let new = block(class_of(new_size, layout.align()));
            if !new.is_null() {
                core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            new
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_the_smallest_power_of_two_that_holds_size_and_alignment() {
        assert_eq!(class_of(0, 1), MIN_CLASS);
        assert_eq!(class_of(16, 4), 4);
        assert_eq!(class_of(17, 4), 5);
        assert_eq!(class_of(8, 32), 5);
        assert_eq!(class_of(640 * 480 * 4, 1), 21);
        assert_eq!(class_of(1 << 20, 1), 20);
        assert_eq!(class_of((1 << 20) + 1, 1), 21);
    }

    #[test]
    fn blocks_are_aligned_to_their_size_up_to_a_page() {
        assert_eq!(place_of(0x1_0010, 4), Some((0x1_0010, 0x1_0020)));
        assert_eq!(place_of(0x1_0011, 4), Some((0x1_0020, 0x1_0030)));
        assert_eq!(place_of(0x1_0010, 10), Some((0x1_0400, 0x1_0800)));
        assert_eq!(place_of(0x1_0010, 20), Some((0x2_0000, 0x12_0000)));
        assert_eq!(place_of(0x2_0000, 20), Some((0x2_0000, 0x12_0000)));
        assert_eq!(place_of(usize::MAX - 8, 4), None);
        assert_eq!(place_of(usize::MAX - 15, 4), None);
        assert_eq!(place_of(usize::MAX - PAGE - 31, 4), Some((usize::MAX - PAGE - 31, usize::MAX - PAGE - 15)));
        assert_eq!(place_of(usize::MAX - PAGE - 15, 4), None);
    }
}
