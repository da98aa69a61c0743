//! Paging the output in: one `madvise` per task instead of one fault per 4 KiB page.

/// Asks the kernel to map the whole pages of `dest` before it is filled: one system call per
/// task instead of one trap per 4 KiB page (2 GB of observations a million decisions are half
/// a million pages, whose faults were half the load's time; this takes a quarter off them).
/// Where the kernel cannot (before Linux 5.14, or pages larger than 4 KiB) the pages fault
/// in as usual.
///
/// Not 2 MiB pages (`MADV_HUGEPAGE`), though they take 512 times fewer faults: the VM
/// measured reports its free 2 MiB blocks to the host, which takes them back, so a huge page
/// is faulted in again on the host when used. Loads into huge pages cost 1.3 CPU-seconds per
/// million decisions when they reused pages freed a moment before, but 3.3 to 6.2 otherwise
/// (a first load, or one a second after the last), against 1.7 to 2.1 in 4 KiB pages, whose
/// free blocks are scattered and not given back (BENCHMARKS.md, 2026-11-24).
pub(super) fn prefault(dest: &mut [u8]) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = (dest.as_mut_ptr() as usize).next_multiple_of(PAGE);
        let end = (dest.as_mut_ptr() as usize + dest.len()) / PAGE * PAGE;
        // Arrays already mapped (those of an earlier load, given back with `out=`) are
        // left as they are: populating present pages still walks them one by one, 6% of
        // such a load. Their first and last pages tell, as the kernel maps a fresh
        // allocation only where it is written.
        if end > start && !(resident(start) && resident(end - PAGE)) {
            // SAFETY: the range is whole pages inside `dest`, which this thread holds
            // exclusively. MADV_POPULATE_WRITE faults them in as a write would, leaving
            // what they hold unchanged; failure only means they fault in later, so the
            // result is ignored.
            unsafe {
                libc::madvise(
                    start as *mut libc::c_void,
                    end - start,
                    libc::MADV_POPULATE_WRITE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = dest;
}

/// Whether the 4 KiB page at `page` (page-aligned, inside memory this process owns) is
/// mapped in; `false` where the kernel cannot tell.
#[cfg(target_os = "linux")]
fn resident(page: usize) -> bool {
    let mut vec = [0u8; 1];
    // SAFETY: mincore only reads the process's page tables for the one page at `page`, and
    // writes one byte for it into `vec`, which has room for it. An error (an address not
    // mapped) is answered `false`.
    let ok = unsafe { libc::mincore(page as *mut libc::c_void, 4096, vec.as_mut_ptr()) } == 0;
    ok && vec[0] & 1 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `resident` tells a page written from one never touched, in a fresh allocation (64 MiB,
    /// above what the allocator serves from its heap, so mapped fresh and not written), and
    /// prefaulting maps the pages without changing what they hold.
    #[cfg(target_os = "linux")]
    #[test]
    fn resident_tells_mapped_pages_from_fresh_ones() {
        let mut v = vec![0u8; 64 << 20];
        let base = v.as_ptr() as usize;
        let page = |k: usize| base.next_multiple_of(4096) + k * 4096;
        assert!(!resident(page(3)) && !resident(page(100)));
        v[page(3) - base] = 7;
        assert!(resident(page(3)) && !resident(page(100)));
        prefault(&mut v[page(50) - base..page(200) - base]);
        assert!(resident(page(100)) && !resident(page(300)));
        assert!(v
            .iter()
            .enumerate()
            .all(|(i, &b)| b == u8::from(i == page(3) - base) * 7));
    }
}
