//! Times `taisim_datasets::load_decisions` on a run made with `--decisions`:
//! `cargo run --release --example load_decisions -- RUN_DIR`.

use std::time::Instant;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: load_decisions RUN_DIR");
        std::process::exit(2);
    };
    for _ in 0..3 {
        let start = Instant::now();
        match taisim_datasets::load_decisions(std::path::Path::new(&dir), None) {
            Ok(d) => {
                let s = start.elapsed().as_secs_f64();
                println!(
                    "{} decisions in {s:.3} s: {:.0} decisions/s",
                    d.rows,
                    d.rows as f64 / s
                );
            }
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
    }
}
