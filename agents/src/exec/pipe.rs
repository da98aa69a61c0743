//! A bot's process and its two pipes, read and written against a deadline.
//!
//! On Unix both ends are non-blocking and waited on with `poll(2)`, so a bot that stops
//! reading its input or never answers cannot hold the table past the deadline, and the
//! table needs no helper thread (a thread hop per decision would cost more than the JSON).
//! Elsewhere the pipes block and the deadline is not enforced.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where a bot's standard error goes.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum BotStderr {
    /// To taisim's own standard error.
    #[default]
    Inherit,
    /// Into this file (created, or truncated when a part is played again).
    File(PathBuf),
    /// Nowhere.
    Null,
}

/// The longest line a bot may send (1 MiB): a longer one is a fault, not a buffer that grows
/// without end.
pub const MAX_LINE: usize = 1 << 20;

/// Why a pipe operation failed.
#[derive(Debug)]
pub(crate) enum PipeError {
    /// The deadline passed first.
    Timeout,
    /// The bot closed its output (it exited, or closed stdout).
    Closed,
    /// A line longer than [`MAX_LINE`].
    TooLong,
    /// The wait was stopped from outside ([`Pipe::cancel_on`]): Ctrl-C in Python.
    Cancelled,
    Io(io::Error),
}

/// How often a wait with a cancel flag looks at it: a wait for a hung bot's hello would
/// otherwise hold Ctrl-C for the whole start-up timeout.
const CANCEL_POLL: Duration = Duration::from_millis(50);

/// A running bot.
pub(crate) struct Pipe {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    buf: Vec<u8>,
    /// Bytes of `buf` already handed out as lines.
    start: usize,
    /// Killed and waited for: nothing more to end.
    ended: bool,
    /// Set from outside to stop a wait ([`Pipe::cancel_on`]).
    cancel: Option<Arc<AtomicBool>>,
}

impl Pipe {
    /// Starts `command` through the shell (`sh -c`), as a terminal would run it.
    pub fn spawn(command: &str, stderr: &BotStderr) -> io::Result<Pipe> {
        #[cfg(unix)]
        let mut cmd = {
            let mut c = Command::new("sh");
            c.arg("-c").arg(shell_line(command).as_ref());
            c
        };
        #[cfg(not(unix))]
        let mut cmd = {
            let mut c = Command::new("cmd");
            c.arg("/C").arg(command);
            c
        };
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
        // A group of its own: the shell and whatever it starts are ended together, and a
        // terminal's Ctrl-C reaches taisim, which ends them, not the bot behind its back.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        cmd.stderr(match stderr {
            BotStderr::Inherit => Stdio::inherit(),
            BotStderr::Null => Stdio::null(),
            BotStderr::File(path) => {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                Stdio::from(std::fs::File::create(path)?)
            }
        });
        let mut child = super::groups::start(&mut cmd)?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        // Made before anything else can fail, so that its drop ends the bot.
        let pipe = Pipe {
            child,
            stdin: Some(stdin),
            stdout,
            buf: Vec::with_capacity(4096),
            start: 0,
            ended: false,
            cancel: None,
        };
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            set_nonblocking(pipe.stdin.as_ref().expect("just set").as_raw_fd())?;
            set_nonblocking(pipe.stdout.as_raw_fd())?;
        }
        Ok(pipe)
    }

    /// Stops every wait of this pipe, then and after, once `flag` is set
    /// ([`PipeError::Cancelled`]).
    pub fn cancel_on(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    /// Writes all of `data` before `deadline`.
    pub fn send(&mut self, mut data: &[u8], deadline: Instant) -> Result<(), PipeError> {
        let stdin = self.stdin.as_mut().ok_or(PipeError::Closed)?;
        while !data.is_empty() {
            match stdin.write(data) {
                Ok(0) => return Err(PipeError::Closed),
                Ok(n) => data = &data[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    #[cfg(unix)]
                    {
                        use std::os::fd::AsRawFd;
                        wait_for(
                            stdin.as_raw_fd(),
                            libc::POLLOUT,
                            deadline,
                            self.cancel.as_deref(),
                        )?;
                    }
                    #[cfg(not(unix))]
                    let _ = deadline;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(PipeError::Closed),
                Err(e) => return Err(PipeError::Io(e)),
            }
        }
        Ok(())
    }

    /// The next line the bot wrote that is not blank (without its newline), read before
    /// `deadline`.
    pub fn read_line(&mut self, deadline: Instant) -> Result<&[u8], PipeError> {
        loop {
            let (a, b) = self.line_range(deadline)?;
            if !self.buf[a..b].iter().all(u8::is_ascii_whitespace) {
                return Ok(&self.buf[a..b]);
            }
        }
    }

    /// Where the next line lies in `buf` (without its newline or a `\r` before it).
    fn line_range(&mut self, deadline: Instant) -> Result<(usize, usize), PipeError> {
        let mut searched = self.start;
        loop {
            if let Some(i) = self.buf[searched..].iter().position(|&b| b == b'\n') {
                let line_start = self.start;
                let mut end = searched + i;
                self.start = end + 1;
                if end > line_start && self.buf[end - 1] == b'\r' {
                    end -= 1;
                }
                return Ok((line_start, end));
            }
            searched = self.buf.len();
            if searched - self.start > MAX_LINE {
                return Err(PipeError::TooLong);
            }
            // Keep the buffer from creeping: drop what was handed out before reading more.
            if self.start > 0 {
                self.buf.drain(..self.start);
                searched -= self.start;
                self.start = 0;
            }
            let len = self.buf.len();
            self.buf.resize(len + 8192, 0);
            match self.stdout.read(&mut self.buf[len..]) {
                Ok(0) => {
                    self.buf.truncate(len);
                    return Err(PipeError::Closed);
                }
                Ok(n) => self.buf.truncate(len + n),
                Err(e) => {
                    self.buf.truncate(len);
                    match e.kind() {
                        io::ErrorKind::WouldBlock => {
                            #[cfg(unix)]
                            {
                                use std::os::fd::AsRawFd;
                                wait_for(
                                    self.stdout.as_raw_fd(),
                                    libc::POLLIN,
                                    deadline,
                                    self.cancel.as_deref(),
                                )?;
                            }
                            #[cfg(not(unix))]
                            let _ = deadline;
                        }
                        io::ErrorKind::Interrupted => {}
                        _ => return Err(PipeError::Io(e)),
                    }
                }
            }
        }
    }

    /// The first line the bot wrote that no read has taken yet, if one is there now (perhaps
    /// without its end): what is buffered, then what the pipe holds, read without waiting.
    /// Blank lines are dropped, as [`Pipe::read_line`] skips them. Elsewhere than on Unix the
    /// pipe blocks, and only the buffer is looked at.
    pub fn unread(&mut self) -> Option<&[u8]> {
        let mut looked = 0;
        loop {
            if let Some(i) = self.buf[self.start..]
                .iter()
                .position(|b| !b.is_ascii_whitespace())
            {
                let from = self.start + i;
                let end = self.buf[from..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(self.buf.len(), |n| from + n);
                return Some(self.buf[from..end].trim_ascii_end());
            }
            // Only blank bytes: dropping them changes no line (a JSON line may start with
            // white space).
            self.buf.clear();
            self.start = 0;
            // A bot that writes nothing but white space, endlessly, is not looked at forever.
            if cfg!(not(unix)) || looked > MAX_LINE {
                return None;
            }
            self.buf.resize(8192, 0);
            match self.stdout.read(&mut self.buf) {
                Ok(n) => {
                    self.buf.truncate(n);
                    if n == 0 {
                        // Closed: the next write or read reports it, with the exit status.
                        return None;
                    }
                    looked += n;
                }
                Err(e) => {
                    self.buf.clear();
                    // Nothing there (WouldBlock), or an error the next read reports.
                    if e.kind() != io::ErrorKind::Interrupted {
                        return None;
                    }
                }
            }
        }
    }

    /// Whether the bot has exited, and how (waits a moment for a bot whose pipe just closed,
    /// so its status is known).
    pub fn exit_status(&mut self, wait: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Ends the bot: its input is closed (the signal to exit); once it has exited, or after
    /// `grace`, what is left of its process group is killed (what it started and left
    /// running would otherwise outlive taisim). Waits for it, so no zombie is left.
    pub fn close(&mut self, grace: Duration) {
        self.stdin = None;
        let _ = self.exit_status(grace);
        self.kill();
    }

    /// Kills the bot and its process group at once (after a fault: nothing more it says is
    /// read), and waits for it. Once done, does nothing.
    pub fn kill(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        self.stdin = None;
        // The group's id is the bot's process id. When that process has already been waited
        // for, the id still names the group as long as a member lives (POSIX reuses neither
        // while in use); once none does it names nothing until the system gives the id out
        // again, which it does only after cycling through the others.
        #[cfg(unix)]
        if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: a signal to the process group this bot was started in (its own).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        super::groups::forget(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Pipe {
    /// A bot is never left running by a table that is gone (its session ends it first, more
    /// gently; this is for a pipe dropped on any other path).
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(unix)]
fn set_nonblocking(fd: std::os::fd::RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor this process owns (the pipe ends it just created), with
    // the documented F_GETFL/F_SETFL commands; no memory is passed.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Waits until `fd` is ready for `events`, the deadline passes, or `cancel` is set (looked
/// at every [`CANCEL_POLL`]).
#[cfg(unix)]
fn wait_for(
    fd: std::os::fd::RawFd,
    events: libc::c_short,
    deadline: Instant,
    cancel: Option<&AtomicBool>,
) -> Result<(), PipeError> {
    loop {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(PipeError::Cancelled);
        }
        let now = Instant::now();
        if now >= deadline {
            return Err(PipeError::Timeout);
        }
        let mut left = deadline - now;
        if cancel.is_some() {
            left = left.min(CANCEL_POLL);
        }
        let ms = left.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
        let mut p = libc::pollfd {
            fd,
            events,
            revents: 0,
        };
        // SAFETY: one valid pollfd on the stack, count 1.
        let r = unsafe { libc::poll(&mut p, 1, ms) };
        if r > 0 {
            // Readable, writable, or hung up / in error: the read or write that follows says
            // which.
            return Ok(());
        }
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(PipeError::Io(e));
            }
        }
    }
}

/// The line the shell runs for `command`: `exec command` when it is one simple command, so
/// that the bot's program takes the shell's place. Some shells (Debian's dash) fork for the
/// last command of `sh -c`, and then the program is not the process taisim started: the
/// parent-death signal (SIGKILL when taisim dies) reaches the shell alone, and the shell,
/// still holding the bot's output open, hides its closing. A list, a pipeline, a compound
/// command or an assignment before the command is left as written (`exec` would cut the rest
/// of a list short, or run an assignment as a program); its process group still ends it
/// whenever taisim lives to do so.
#[cfg(unix)]
fn shell_line(command: &str) -> std::borrow::Cow<'_, str> {
    const RESERVED: [&str; 19] = [
        "!", "{", "}", "case", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if",
        "in", "select", "then", "time", "until", "while",
    ];
    let first = command.split_ascii_whitespace().next().unwrap_or("");
    let simple = !command.contains([';', '&', '|', '(', ')', '\n', '`'])
        && !first.is_empty()
        && !first.contains('=')
        && !RESERVED.contains(&first)
        && first != "exec";
    if simple {
        format!("exec {command}").into()
    } else {
        command.into()
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn one_simple_command_takes_the_shells_place() {
        let exec = [
            "python3 bot.py",
            "python3 \"my bot.py\" --seat S",
            "./bot --log=bot.log",
            "$HOME/bin/bot 2>>bot.err",
        ];
        for c in exec {
            assert_eq!(shell_line(c), format!("exec {c}"), "{c}");
        }
        let kept = [
            "cd bots && python3 bot.py",
            "python3 bot.py; echo done",
            "python3 bot.py | tee log",
            "python3 bot.py &",
            "PYTHONPATH=lib python3 bot.py",
            "(cd bots; ./bot)",
            "if true; then ./bot; fi",
            "exec ./bot",
            "./bot $(cat args)",
            "./bot\n./other",
            "   ",
        ];
        for c in kept {
            assert_eq!(shell_line(c), c, "{c}");
        }
    }

    /// The process taisim started is the bot's program itself: a program that prints its
    /// own process id prints the child's.
    #[test]
    fn the_bot_is_the_process_started() {
        let mut pipe = Pipe::spawn("sh -c 'echo $$'", &BotStderr::Null).unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let line = pipe.read_line(deadline).unwrap().to_vec();
        let pid: u32 = String::from_utf8(line).unwrap().trim().parse().unwrap();
        assert_eq!(pid, pipe.child.id());
        pipe.close(Duration::from_secs(2));
    }
}
