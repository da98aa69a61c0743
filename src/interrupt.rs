//! Ctrl-C (SIGINT) and SIGTERM during `simulate`: the first stops the run before each
//! worker's next deal, so every complete part is recorded and the command can say how to
//! finish the run; a second ends the process at once, as the default action would. Without
//! this the process died where it stood, with no word of `--resume`. Installed only for a
//! run without outside bots, whose signal handling (`taisim_agents::end_bots_with_process`)
//! this would replace.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// Set once the first signal arrives. Initialised before the handler is installed, so the
/// handler only ever loads an initialised value and stores into an atomic (both
/// async-signal-safe).
static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    if let Some(stop) = STOP.get() {
        stop.store(true, Ordering::Relaxed);
    }
    // SAFETY: restoring the default action is async-signal-safe; a second signal then ends
    // the process.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
    }
}

/// The flag the first SIGINT or SIGTERM sets, with the handlers installed.
pub fn stop_on_signals() -> Arc<AtomicBool> {
    let stop = Arc::clone(STOP.get_or_init(|| Arc::new(AtomicBool::new(false))));
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler touches only the initialised static and the signal's action.
        unsafe {
            libc::signal(
                signal,
                on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t,
            );
        }
    }
    stop
}
