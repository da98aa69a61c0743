//! The bots this process runs, so that they end when it does.
//!
//! A bot is started in a process group of its own, which a terminal's Ctrl-C does not reach:
//! the table must end it. Dropping the table's session does (it kills the group), but a
//! signal's default action ends taisim without any drop, and a bot waiting for its next
//! request would wait on, with whatever it started. So a program's `main` calls
//! [`end_bots_with_process`], after which SIGTERM, SIGINT and SIGHUP kill every bot's group
//! before they end taisim, as they would have without it (the exit status a shell or a
//! supervisor sees is the signal's).
//!
//! A signal handler may not lock or allocate, so it only wakes a thread that may: that thread
//! takes the lock under which bots are started and recorded, which makes the cleanup race-free
//! (a bot being started when the signal comes is recorded first, then killed), and keeps it,
//! so that no bot is started after it.

// Elsewhere no signal is caught, and what serves the handler goes unused.
#![cfg_attr(not(unix), allow(dead_code, unused_imports))]

use std::io;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The process ids of the running bots, each its group's id.
static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Whether bots are tied to this process's life ([`end_bots_with_process`] was called).
static TIED: AtomicBool = AtomicBool::new(false);

/// The write end of the pipe by which the signal handler wakes the cleanup thread (-1: none).
static WAKE: AtomicI32 = AtomicI32::new(-1);

fn groups() -> MutexGuard<'static, Vec<u32>> {
    // Nothing panics while holding the lock; a poisoned lock still holds a valid list.
    GROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts `cmd` (which puts the child in a group of its own) and records it.
pub(crate) fn start(cmd: &mut Command) -> io::Result<Child> {
    #[cfg(target_os = "linux")]
    if TIED.load(Ordering::Relaxed) {
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: the closure runs in the child between fork and exec, where only
        // async-signal-safe calls are allowed: prctl and getppid are system calls, and the
        // errors are made without allocating.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(cmd, move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // taisim died between the fork and the prctl: no signal will come.
                if libc::getppid() != parent {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    let mut running = groups();
    let child = cmd.spawn()?;
    running.push(child.id());
    Ok(child)
}

/// The bot `id` was killed: nothing of it to end any more.
pub(crate) fn forget(id: u32) {
    let mut running = groups();
    if let Some(i) = running.iter().position(|&g| g == id) {
        running.swap_remove(i);
    }
}

/// Makes every bot this process starts (`exec:` agents) end with it:
///
/// - on SIGTERM, SIGINT or SIGHUP, the process group of every running bot (the shell, the
///   bot, whatever they started) is killed, and taisim then ends by the signal as it would
///   have (a second one of the same kind ends it at once); a signal the process was started
///   ignoring (`nohup`) stays ignored;
/// - on Linux, a bot started from now on gets SIGKILL when taisim dies without a chance to
///   clean up (SIGKILL, the out-of-memory killer). That signal reaches only the process
///   taisim started (the shell, or what it executed: `exec:python3 bot.py` runs python in
///   the shell's place), not what that process started in turn: nothing of taisim runs on
///   SIGKILL to end the rest of the group.
///
/// For a program's `main`, not for a library inside another program (the Python package):
/// it replaces that program's handlers of those signals, and Linux sends the parent-death
/// signal when the *thread* that started the bot ends, which in a program whose threads come
/// and go (Python's) would kill a bot still in use. taisim starts bots on its main thread or
/// on a thread pool's workers, which live until the bots are done.
pub fn end_bots_with_process() {
    if TIED.swap(true, Ordering::Relaxed) {
        return;
    }
    #[cfg(unix)]
    if let Err(e) = catch_signals() {
        // The bots still end when their sessions do; only a signal's end would leave them.
        eprintln!("warning: bots started by taisim may outlive it if it is ended by a signal: {e}");
    }
}

#[cfg(unix)]
fn catch_signals() -> io::Result<()> {
    let mut fds = [0; 2];
    // SAFETY: pipe(2) fills the two descriptors; fcntl sets flags on descriptors just made.
    // Close-on-exec, so that no bot inherits them; the write end does not block, so that the
    // handler never waits (a pipe holding one byte is enough to wake the thread).
    unsafe {
        if libc::pipe(fds.as_mut_ptr()) != 0 {
            return Err(io::Error::last_os_error());
        }
        for fd in fds {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
        let flags = libc::fcntl(fds[1], libc::F_GETFL);
        libc::fcntl(fds[1], libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
    let read_end = fds[0];
    std::thread::Builder::new()
        .name("end-bots".into())
        .spawn(move || end_bots_on_wake(read_end))?;
    WAKE.store(fds[1], Ordering::Release);
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        // SAFETY: sigaction with zeroed, then filled, structs on the stack; the handler only
        // reads an atomic and calls write(2), which is async-signal-safe.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                || old.sa_sigaction == libc::SIG_IGN
            {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = wake_the_cleanup as extern "C" fn(libc::c_int) as usize;
            // Back to the default action on entry: the cleanup ends the process by raising
            // the signal again, and a second signal meanwhile ends it at once.
            action.sa_flags = libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(signal, &action, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

#[cfg(unix)]
extern "C" fn wake_the_cleanup(signal: libc::c_int) {
    let byte = signal as u8;
    // SAFETY: write(2) of one byte from the stack to the pipe's write end, which stays open
    // for the life of the process.
    unsafe {
        libc::write(WAKE.load(Ordering::Acquire), (&byte as *const u8).cast(), 1);
    }
}

/// The cleanup thread: waits for a signal's byte, kills every bot's group, then ends the
/// process by that signal.
#[cfg(unix)]
fn end_bots_on_wake(read_end: libc::c_int) {
    let mut byte = 0u8;
    loop {
        // SAFETY: a read of one byte into a byte on the stack.
        let r = unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) };
        if r == 1 {
            break;
        }
        if r < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
            continue;
        }
        return;
    }
    // Kept until the end: a bot being started now is recorded before this runs, and none is
    // started after.
    let running = groups();
    for &id in running.iter() {
        if let Ok(pid) = libc::pid_t::try_from(id) {
            // SAFETY: a signal to the process group a bot was started in (its own).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    let signal = libc::c_int::from(byte);
    // SAFETY: the signal's action is the default again (SA_RESETHAND), which ends the
    // process; were it not to, the exit status a shell gives a signal's end says the same.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
        libc::_exit(128 + signal);
    }
}
