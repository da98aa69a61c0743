//! Long calls that answer Ctrl-C: the work runs with the GIL released while Python's own
//! thread, where signal handlers run, keeps looking for a signal.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use pyo3::prelude::*;

/// How often a call running without the GIL looks for a signal (Ctrl-C) Python has caught.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// An environment's cancel flag, given to its opponents when they may take long (a search,
/// an `exec:` bot): its steps and resets then answer Ctrl-C. Other environments step as
/// before, sparing each step a thread's start.
pub(super) struct Stop {
    /// The flag, when the opponents may take long.
    flag: Option<Arc<AtomicBool>>,
    /// Whether work runs with the GIL released without a flag (a batch's steps always did;
    /// one environment's steps hold it, as they always have).
    release: bool,
}

impl Stop {
    /// A fresh flag when `takes_time` (the environment's opponents may take long), which
    /// `cancel_on` hands to the environment. `release`: as the field.
    pub(super) fn new(
        takes_time: bool,
        release: bool,
        cancel_on: impl FnOnce(&Arc<AtomicBool>),
    ) -> Stop {
        let flag = takes_time.then(|| Arc::new(AtomicBool::new(false)));
        if let Some(flag) = &flag {
            cancel_on(flag);
        }
        Stop { flag, release }
    }

    /// Runs `work` on `env`: through [`interruptible`], the flag cleared first, when there
    /// is a flag; else as it always ran. When the signal wins (Ctrl-C's `KeyboardInterrupt`,
    /// the error), `abandon` leaves `env` as a stop does, since the work may have ended
    /// just before the signal was seen: Python is then told what the environment holds.
    pub(super) fn run<E: Send, T: Send>(
        &self,
        py: Python<'_>,
        env: &mut E,
        work: impl FnOnce(&mut E) -> T + Send,
        abandon: impl FnOnce(&mut E),
    ) -> PyResult<T> {
        let Some(flag) = &self.flag else {
            return Ok(if self.release {
                py.allow_threads(|| work(env))
            } else {
                work(env)
            });
        };
        flag.store(false, Ordering::Relaxed);
        let done = interruptible(py, flag, || work(&mut *env));
        if done.is_err() {
            abandon(env);
        }
        done
    }
}

/// Runs `work` on a thread of its own with the GIL released, while this thread (Python's,
/// where signal handlers run) checks for signals every [`SIGNAL_POLL`]. When a handler
/// raises (Ctrl-C's `KeyboardInterrupt`), `cancel` is set for the work to stop at its next
/// check, the work is waited for, so nothing is left writing, and the handler's exception
/// is raised in place of its result.
pub(super) fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let mut raised = None;
    let out = py.allow_threads(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel();
            let worker = scope.spawn(move || {
                let out = work();
                // The receiver waits until the worker ends: it cannot be gone.
                let _ = tx.send(());
                out
            });
            loop {
                match rx.recv_timeout(SIGNAL_POLL) {
                    Err(RecvTimeoutError::Timeout) if raised.is_none() => {
                        if let Err(e) = Python::with_gil(|py| py.check_signals()) {
                            cancel.store(true, Ordering::Relaxed);
                            raised = Some(e);
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    // Done, or the worker panicked (the sender dropped unsent): join says.
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                }
            }
            worker.join()
        })
    });
    let out = out.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    match raised {
        Some(e) => Err(e),
        None => Ok(out),
    }
}
