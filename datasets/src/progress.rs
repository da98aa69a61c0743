//! Progress of a run: a bar on a terminal, a plain line now and then when the output is a
//! log file, or nothing.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How a run shows its progress (on stderr).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A bar when stderr is a terminal, plain lines otherwise.
    Auto,
    Bar,
    Lines,
    Quiet,
}

/// How often plain lines are printed.
const LINE_INTERVAL: Duration = Duration::from_secs(10);

/// A rate to three significant figures at most, so that a slow agent's rate (a wall of the
/// search in four seconds) is not printed as 0.
pub fn per_second(rate: f64) -> String {
    match rate {
        r if r >= 100.0 => format!("{r:.0}"),
        r if r >= 10.0 => format!("{r:.1}"),
        r if r >= 1.0 => format!("{r:.2}"),
        r => format!("{r:.3}"),
    }
}

pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    lines: Option<Mutex<Instant>>,
    done: AtomicU64,
    /// Units done before this invocation (a resumed run), left out of the rate.
    already: u64,
    total: u64,
    unit: &'static str,
    start: Instant,
}

impl Progress {
    pub fn new(mode: ProgressMode, total: u64, already: u64, unit: &'static str) -> Progress {
        let mode = match mode {
            ProgressMode::Auto if std::io::stderr().is_terminal() => ProgressMode::Bar,
            ProgressMode::Auto => ProgressMode::Lines,
            m => m,
        };
        let bar = (mode == ProgressMode::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{{bar:40}} {{human_pos}}/{{human_len}} {unit} {{rate}} ETA {{eta}}"
                ))
                .expect("the template is valid")
                // indicatif's own `per_sec` shows four decimals of a rate in the thousands.
                .with_key(
                    "rate",
                    |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{}/s", per_second(state.per_sec()));
                    },
                ),
            );
            bar.set_position(already);
            bar.reset_eta();
            bar
        });
        Progress {
            bar,
            lines: (mode == ProgressMode::Lines).then(|| Mutex::new(Instant::now())),
            done: AtomicU64::new(already),
            already,
            total,
            unit,
            start: Instant::now(),
        }
    }

    /// `n` more units done.
    pub fn advance(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
        if let Some(last) = &self.lines {
            // Whoever finds the interval over prints; the others do not wait for the lock.
            if let Ok(mut last) = last.try_lock() {
                if last.elapsed() >= LINE_INTERVAL {
                    *last = Instant::now();
                    self.print_line(done);
                }
            }
        }
    }

    fn print_line(&self, done: u64) {
        let secs = self.start.elapsed().as_secs_f64();
        let rate = (done - self.already) as f64 / secs.max(1e-9);
        let eta = if rate > 0.0 {
            (self.total - done) as f64 / rate
        } else {
            f64::INFINITY
        };
        // A closed or full stderr must not stop the run: the line is dropped.
        let _ = writeln!(
            std::io::stderr(),
            "taisim: {done}/{} {} ({:.1}%), {} {}/s, ETA {eta:.0} s",
            self.total,
            self.unit,
            100.0 * done as f64 / self.total.max(1) as f64,
            per_second(rate),
            self.unit,
        );
    }

    /// Units done so far, those before this invocation included.
    #[cfg(test)]
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::per_second;

    #[test]
    fn slow_rates_keep_their_figures() {
        assert_eq!(per_second(0.274), "0.274");
        assert_eq!(per_second(3.456), "3.46");
        assert_eq!(per_second(45.67), "45.7");
        assert_eq!(per_second(12345.6), "12346");
    }
}
