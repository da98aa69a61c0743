//! Running the real `taisim` binary, for the command-line tests (each `tests/cli_*.rs` uses
//! the helpers it needs, so each leaves some unused).
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// `taisim ARGS` to completion, with its output captured.
pub fn taisim(args: &[&str]) -> Output {
    taisim_with_input(args, b"")
}

/// `taisim ARGS` with `stdin` written to its standard input, which is then closed.
pub fn taisim_with_input(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
