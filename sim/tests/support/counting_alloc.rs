//! A global allocator that counts allocations, for the zero-allocation tests. Each test binary
//! installs it with
//! `#[global_allocator] static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;`
//! (a global allocator belongs to one binary, so the tests include this file by path).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

pub struct Counting;

thread_local! {
    // Per thread: the test harness runs tests side by side, each on its own thread, and one
    // test's allocations must not count against another's window. Const-initialised with no
    // destructor, so the allocator may touch it at any time.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
}

/// Allocations (and reallocations) made by this thread since it started.
pub fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
