//! Worker threads: how many a command may start, and the pool it plays on.

use crate::error::HarnessError;

/// The most worker threads a run starts: more than any machine taisim runs on has cores,
/// and few enough that starting them is instant (a typo like 100000 is refused, not obeyed).
pub const MAX_THREADS: usize = 1024;

/// Checks a requested thread count: `None` is every core.
pub fn check_threads(threads: Option<usize>) -> Result<(), HarnessError> {
    match threads {
        Some(0) => Err(HarnessError::Usage(
            "the thread count must be at least 1".into(),
        )),
        Some(n) if n > MAX_THREADS => Err(HarnessError::Usage(format!(
            "a thread count of {n} is more than the {MAX_THREADS} a run may start"
        ))),
        _ => Ok(()),
    }
}

/// A pool of `threads` worker threads; the machine's refusal is [`HarnessError::Threads`].
pub fn worker_pool(threads: usize) -> Result<rayon::ThreadPool, HarnessError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| HarnessError::Threads { threads, source })
}
