//! `taisim play` driven through a pseudo-terminal, as a person at a terminal would: it draws
//! the table and numbers the legal actions, asks again after an answer that is not one of
//! them, plays the person's choices to the end of the deal (the settlement shown is the one
//! the engine gives the same deal played with those choices), shows the search's review;
//! under taizhou it shows the wild.
#![cfg(unix)]

use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use taisim_agents::protocol::{end_event, Event};
use taisim_agents::{Agent, GreedyAgent};
use taisim_score::Variant;
use taisim_sim::{seat_wind, splitmix64, ActionList, Deal, DealContext, Seat, Wind};

mod support;

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

/// What a session at the terminal left: the screen, whether `taisim play` succeeded and how
/// many choices were typed.
struct Session {
    screen: String,
    success: bool,
    answered: usize,
}

/// Runs `taisim play ARGS` on a pseudo-terminal and answers every prompt with the last action
/// offered (a pass when answering a discard, the last discard on a turn), after answering the
/// first prompt with a word.
fn play_in_a_terminal(args: &[&str]) -> Session {
    let (master, slave) = openpty();
    let mut child = Command::new(env!("CARGO_BIN_EXE_taisim"))
        .arg("play")
        .args(args)
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
            let line = screen.rsplit('\n').next().unwrap();
            let digits: String = line["choose [0-".len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let n: usize = digits.parse().unwrap();
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
    Session {
        screen,
        success: status.success(),
        answered,
    }
}

/// The payments line `taisim play` should show for deal `seed` of `variant` with `me` taking
/// the last legal action at every decision with a choice and greedy in the other seats: the
/// deal played here with the engine, its dealer and round wind drawn as `taisim play` and
/// `taisim arena` draw them.
fn expected_payments(variant: &str, seed: u64, me: Seat) -> String {
    let variant = Arc::new(Variant::builtin(variant).unwrap());
    let context = drawn_context(seed);
    let mut deal = Deal::new(variant.rules(), seed, context).unwrap();
    let mut legal = ActionList::new();
    let mut greedy = GreedyAgent::for_variant(&variant);
    while let Some(s) = deal.to_act() {
        deal.legal_actions(&mut legal);
        let a = if s == me {
            legal[legal.len() - 1]
        } else {
            greedy.act(&deal.view(s), &legal)
        };
        deal.play(a).unwrap();
    }
    let st = &variant.settlement();
    let Event::End(end) = end_event(&deal, &variant, st.base, st.per_tai).unwrap() else {
        unreachable!()
    };
    let shown: Vec<String> = Wind::ALL
        .iter()
        .map(|&s| format!("{s} {}", end.payments[s]))
        .collect();
    format!("payments: {}", shown.join(" "))
}

/// The dealer and round wind `taisim play` and `taisim arena` draw for deal `seed`.
fn drawn_context(seed: u64) -> DealContext {
    let r = splitmix64(seed ^ 0xc0_7e87);
    DealContext {
        round_wind: Wind::new((r >> 2) as u8),
        dealer: Wind::new(r as u8),
        streak: 0,
    }
}

/// How `taisim play` names `seat` in deal `seed`: its letter and the wind it holds there
/// (門風), which is East for the dealer whatever its letter.
fn seat_label(seed: u64, seat: Seat) -> String {
    let dealer = drawn_context(seed).dealer;
    let wind = seat_wind(seat, dealer);
    let zh = ["東", "南", "西", "北"][wind as usize];
    format!("seat {seat} ({zh} {wind:?} wind")
}

#[test]
fn a_person_plays_a_deal_in_a_terminal() {
    let s = play_in_a_terminal(&[
        "--seed",
        "5",
        "--seat",
        "S",
        "--opponents",
        "greedy",
        "--review-budget",
        "8",
    ]);
    let screen = &s.screen;
    assert!(s.success, "{screen}");
    assert!(
        screen.contains("\"five\" is neither one of 0 to"),
        "{screen}"
    );
    assert!(s.answered > 5, "{} answers:\n{screen}", s.answered);
    // Seed 5's dealer is not seat E, so a seat's letter and its wind differ.
    assert_ne!(drawn_context(5).dealer, Seat::East);
    for want in [
        &format!("you are {}", seat_label(5, Seat::South)),
        "your hand: ",
        "your turn:",
        "river:",
        "tiles left",
        "the deal is over",
        &expected_payments("taiwan16", 5, Seat::South),
        "the search reviews your decisions (search:8;",
        "> played",
    ] {
        assert!(
            screen.contains(want),
            "no {want:?} on the screen:\n{screen}"
        );
    }
}

#[test]
fn a_person_plays_taizhou_and_sees_the_wild() {
    let s = play_in_a_terminal(&[
        "--variant",
        "taizhou",
        "--seed",
        "77",
        "--seat",
        "E",
        "--opponents",
        "greedy",
        "--no-review",
    ]);
    let screen = &s.screen;
    assert!(s.success, "{screen}");
    assert!(s.answered > 3, "{} answers:\n{screen}", s.answered);
    for want in [
        &format!("you are {}", seat_label(77, Seat::East)),
        "taizhou",
        " · wild ",
        "(indicator ",
        "the deal is over",
        &expected_payments("taizhou", 77, Seat::East),
    ] {
        assert!(
            screen.contains(want),
            "no {want:?} on the screen:\n{screen}"
        );
    }
    assert!(!screen.contains("the search reviews"), "{screen}");
}

/// Under a points variant the settlement shows what the payments are made of, as `replay`
/// does: each pattern's 胡, every seat's value and the points before the stake (taizhou.md
/// 胜负规则). Seed 1 ends in a discard win.
#[test]
fn a_person_sees_taizhou_s_points_and_values() {
    let s = play_in_a_terminal(&[
        "--variant",
        "taizhou",
        "--seed",
        "1",
        "--opponents",
        "greedy",
        "--no-review",
    ]);
    let screen = &s.screen;
    assert!(s.success, "{screen}");
    for want in [
        "wins: ",
        " 胡 + 底胡, ",
        " 胡  0 台",
        "values: E ",
        "settlement in points: E ",
        "(× 2 money per point)",
        &expected_payments("taizhou", 1, Seat::South),
    ] {
        assert!(
            screen.contains(want),
            "no {want:?} on the screen:\n{screen}"
        );
    }
}

/// A bot that cannot be started stops the deal at its fault, with its error and exit status
/// 1: the person never plays on against fallback answers they did not choose
/// (docs/protocol.md, Faults).
#[test]
fn a_failed_bot_ends_the_deal_at_once() {
    let s = play_in_a_terminal(&[
        "--seed",
        "1",
        "--opponents",
        "exec:/nonexistent/taisim-bot",
        "--no-review",
    ]);
    let screen = &s.screen;
    assert!(!s.success, "{screen}");
    assert!(
        screen.contains("bot exec:/nonexistent/taisim-bot exited"),
        "{screen}"
    );
    assert!(s.answered <= 1, "{} answers:\n{screen}", s.answered);
    assert!(!screen.contains("the deal is over"), "{screen}");
}

/// Input that ends before the deal does leaves it unfinished: exit status 1 and the seed to
/// play it again, never the exit 0 of a finished deal. A line without end is refused at the
/// protocol's bound (exit 2), not gathered until memory runs out.
#[test]
fn input_that_ends_or_never_ends_is_not_a_finished_deal() {
    let play = |input: &[u8]| {
        let args = [
            "play",
            "--seed",
            "42",
            "--opponents",
            "greedy",
            "--no-review",
        ];
        let out = support::taisim_with_input(&args, input);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = play(b"0\n0\n");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("no more input; the deal is left unfinished (play it again with --seed 42)"),
        "{err}"
    );
    let (code, err) = play(&vec![b'0'; (1 << 20) + 2]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("a line longer than 1048576 bytes"), "{err}");
}
