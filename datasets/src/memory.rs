//! What a part costs in memory while it is played, and what the machine has: every worker
//! holds one whole part (its rows, then its encoded files) until the part is written, so the
//! part size and the worker count are bounded by the memory available, with an error that
//! names the numbers instead of an allocation failure (an abort) or a capacity overflow (a
//! panic).

use crate::spec::{RunSpec, Unit};

/// Bytes a deal's rows take in memory while its part is built and encoded: measured about
/// 280 a deal more from a part of 65,536 deals to one of 262,144, about 620 a deal counting
/// the process's own (taiwan16, greedy agents, peak resident size of one thread; BENCHMARKS.md,
/// "One part's memory"), with room for longer deals.
const DEAL_BYTES: u64 = 640;

/// What `--log-actions` adds to a deal (measured about 180).
const ACTIONS_BYTES: u64 = 320;

/// What the decisions table adds to a deal for each recorded seat: its decisions' 2,176
/// observation bytes and 144 mask bytes, then the encoded copy (measured 63 KB for one seat
/// and 245 KB for four, over 2,048 deals a part).
const DECISION_SEAT_BYTES: u64 = 80 << 10;

/// What search labels add to a recorded seat's deal: about 1.7 KB a decision (144 means,
/// advantages and rollout counts), the same number of decisions as
/// [`DECISION_SEAT_BYTES`] counts.
const LABEL_SEAT_BYTES: u64 = 64 << 10;

/// Deals a game is counted as (about 20 with greedy players; the part's first allocation
/// assumes 24 too).
const DEALS_PER_GAME: u64 = 24;

/// The memory one part of `spec` holds while it is played, in bytes (saturating: a part
/// size past any machine's memory gives `u64::MAX`).
pub fn part_bytes(spec: &RunSpec) -> u64 {
    let units = spec.part_size.min(spec.count);
    let deals = match spec.unit {
        Unit::Deals => units,
        Unit::Games => units.saturating_mul(DEALS_PER_GAME),
    };
    let mut per_deal = DEAL_BYTES;
    if spec.log_actions {
        per_deal += ACTIONS_BYTES;
    }
    if let Some(seats) = spec.decisions {
        per_deal += DECISION_SEAT_BYTES * u64::from(seats.count());
        if spec.search_labels() {
            per_deal += LABEL_SEAT_BYTES * u64::from(seats.count());
        }
    }
    deals.saturating_mul(per_deal)
}

/// The largest part size whose part fits in `bytes`.
pub fn part_size_within(spec: &RunSpec, bytes: u64) -> u64 {
    let one = part_bytes(&RunSpec {
        part_size: 1,
        count: 1,
        ..spec.clone()
    })
    .max(1);
    bytes / one
}

/// Memory this process may still use, in bytes, if the system says: Linux's
/// `MemAvailable`, lowered to what the control group's limit leaves (a container).
pub fn available() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
        let kb: u64 = meminfo
            .lines()
            .find_map(|l| l.strip_prefix("MemAvailable:"))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        let mut bytes = kb.saturating_mul(1024);
        // cgroup v2: the limit less what the group already uses.
        let read = |name: &str| {
            std::fs::read_to_string(format!("/sys/fs/cgroup/{name}"))
                .ok()
                .and_then(|t| t.trim().parse::<u64>().ok())
        };
        if let (Some(max), Some(current)) = (read("memory.max"), read("memory.current")) {
            bytes = bytes.min(max.saturating_sub(current));
        }
        Some(bytes)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// `bytes` for a message: "512 MB", "1.5 GB".
pub fn human(bytes: u64) -> String {
    const MB: f64 = 1e6;
    let b = bytes as f64;
    if b >= 1e12 * 10.0 {
        format!("{:.0} TB", b / 1e12)
    } else if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else {
        format!("{:.0} MB", (b / MB).max(1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DecisionSeats;

    fn spec(part_size: u64, count: u64) -> RunSpec {
        RunSpec {
            count,
            part_size,
            ..crate::spec::test_spec("greedy")
        }
    }

    #[test]
    fn a_part_costs_what_its_rows_cost_and_never_overflows() {
        assert_eq!(part_bytes(&spec(1000, 10)), 10 * DEAL_BYTES);
        assert_eq!(part_bytes(&spec(1000, 5000)), 1000 * DEAL_BYTES);
        assert_eq!(part_bytes(&spec(u64::MAX, u64::MAX)), u64::MAX);
        let decisions = RunSpec {
            decisions: Some(DecisionSeats::ALL),
            ..spec(2048, 1 << 20)
        };
        // The default decisions part: about half a gigabyte a worker.
        let bytes = part_bytes(&decisions);
        assert!((500_000_000..800_000_000).contains(&bytes), "{bytes}");
        assert_eq!(part_size_within(&decisions, bytes), 2048);
        let games = RunSpec {
            unit: Unit::Games,
            ..spec(u64::MAX / 2, u64::MAX / 65536)
        };
        assert!(part_bytes(&games) > 4_000_000_000_000_000_000);
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(512_000_000), "512 MB");
        assert_eq!(human(1_500_000_000), "1.5 GB");
        assert_eq!(human(u64::MAX), "18446744 TB");
    }
}
