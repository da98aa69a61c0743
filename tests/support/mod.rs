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
    // A command that exits without reading its input (a refused argument) closes the pipe.
    if let Err(e) = input.write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    drop(input);
    child.wait_with_output().unwrap()
}

/// `taisim ARGS` run in the folder `dir`, with its output captured.
pub fn taisim_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `taisim ARGS` with `stdin`, killed after `seconds` if still running: a command that hangs
/// (a FIFO read without end) fails the test instead of stalling the suite. `None` when it
/// had to be killed.
pub fn taisim_within(args: &[&str], stdin: &[u8], seconds: u64) -> Option<Output> {
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_taisim"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // A command that exits without reading its input closes the pipe: not a failure here.
    let _ = input.write_all(stdin);
    drop(input);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Some(child.wait_with_output().unwrap())
}

/// Every file under the table directories of a run, by path relative to it, with its bytes.
pub fn table_files(run: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    for table in ["deals", "wins", "tai", "decisions"] {
        let Ok(entries) = std::fs::read_dir(run.join(table)) else {
            continue;
        };
        for e in entries {
            let e = e.unwrap();
            let name = format!("{table}/{}", e.file_name().to_string_lossy());
            files.insert(name, std::fs::read(e.path()).unwrap());
        }
    }
    files
}

/// Leaves `run` as a kill during its first parts does: a running manifest recording none.
pub fn unrecord_every_part(run: &std::path::Path) {
    let path = run.join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    m["status"] = "running".into();
    m["parts"] = serde_json::json!([]);
    m["rows"] = serde_json::json!({"deals": 0, "wins": 0, "tai": 0});
    std::fs::write(&path, m.to_string()).unwrap();
}
