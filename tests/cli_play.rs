//! `taisim play` driven through a pseudo-terminal, as a person at a terminal would: it draws
//! the table and numbers the legal actions, asks again after an answer that is not one of
//! them, plays the deal to its end, shows the settlement and the search's review.
#![cfg(unix)]

use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A pseudo-terminal's two ends.
fn openpty() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two descriptors into the ints given; no name, termios or size.
    let r = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened for this process and are owned here.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

#[test]
fn a_person_plays_a_deal_in_a_terminal() {
    let (master, slave) = openpty();
    let mut child = Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args([
            "play",
            "--seed",
            "5",
            "--seat",
            "S",
            "--opponents",
            "greedy",
            "--review-budget",
            "8",
        ])
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    let mut term = std::fs::File::from(master);
    // SAFETY: a valid descriptor; non-blocking reads, so the loop can time out.
    unsafe {
        let fd = std::os::fd::AsRawFd::as_raw_fd(&term);
        libc::fcntl(
            fd,
            libc::F_SETFL,
            libc::fcntl(fd, libc::F_GETFL) | libc::O_NONBLOCK,
        );
    }
    let mut screen = String::new();
    let mut answered = 0usize;
    let mut asked_again = false;
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut buf = [0u8; 4096];
    loop {
        assert!(
            Instant::now() < deadline,
            "taisim play did not finish:\n{screen}"
        );
        match term.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => screen.push_str(&String::from_utf8_lossy(&buf[..n])),
            // EIO: the child closed the terminal's last slave end (it exited).
            Err(e) if e.raw_os_error() == Some(libc::EIO) => break,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if child.try_wait().unwrap().is_some() && !screen.ends_with(": ") {
                    // Drain what is left, then stop.
                    std::thread::sleep(Duration::from_millis(50));
                    if let Ok(n) = term.read(&mut buf) {
                        screen.push_str(&String::from_utf8_lossy(&buf[..n]));
                    }
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
                continue;
            }
            Err(e) => panic!("{e}"),
        }
        if screen.ends_with(": ")
            && screen
                .rsplit('\n')
                .next()
                .unwrap()
                .starts_with("choose [0-")
        {
            // The first answer is not a number: asked again. Then the last action offered
            // (a pass when answering a discard, the last discard on a turn).
            let line = screen.rsplit('\n').next().unwrap();
            let n: usize = line["choose [0-".len()..line.len() - 3].parse().unwrap();
            if !asked_again {
                term.write_all(b"five\n").unwrap();
                asked_again = true;
            } else {
                term.write_all(format!("{n}\n").as_bytes()).unwrap();
                answered += 1;
            }
        }
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "{screen}");
    assert!(screen.contains("\"five\" is not one of 0 to"), "{screen}");
    assert!(answered > 5, "{answered} answers:\n{screen}");
    for want in [
        "you are South",
        "your hand: ",
        "your turn:",
        "river:",
        "tiles left",
        "the deal is over",
        "payments: E",
        "the search reviews your decisions",
        "> played",
    ] {
        assert!(
            screen.contains(want),
            "no {want:?} on the screen:\n{screen}"
        );
    }
}
