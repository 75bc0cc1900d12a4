//! Resident memory, CPU time, threads and open files of a process, read from
//! `/proc/<pid>/stat`, `/proc/<pid>/status` and `/proc/<pid>/fd` (Linux).

use std::time::Instant;

/// One reading of a process.
#[derive(Clone, Copy, Debug)]
pub struct ProcSample {
    /// The process.
    pub pid: u32,
    /// When it was taken.
    pub at: Instant,
    /// Resident set size, KiB.
    pub rss_kib: u64,
    /// Peak resident set size, KiB.
    pub hwm_kib: u64,
    /// User plus system CPU time, clock ticks.
    pub cpu_ticks: u64,
    /// Threads.
    pub threads: u64,
    /// Open file descriptors.
    pub fds: u64,
}

/// User + system ticks from the text of `/proc/<pid>/stat`.
///
/// The command name (field 2) may hold spaces and parentheses, so fields are
/// counted after its last `)`: state is field 3, utime 14, stime 15.
pub fn parse_stat(text: &str) -> Option<u64> {
    let after = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// `(VmRSS, VmHWM, Threads)` from the text of `/proc/<pid>/status` (KiB).
pub fn parse_status(text: &str) -> (u64, u64, u64) {
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"), field("Threads:"))
}

/// Reads `pid` now; `None` if the process is gone.
pub fn sample(pid: u32) -> Option<ProcSample> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let (rss_kib, hwm_kib, threads) = parse_status(&status);
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count() as u64)
        .unwrap_or(0);
    Some(ProcSample {
        pid,
        at: Instant::now(),
        rss_kib,
        hwm_kib,
        cpu_ticks: parse_stat(&stat)?,
        threads,
        fds,
    })
}

/// Clock ticks per second (`getconf CLK_TCK`; 100 on Linux if that fails).
pub fn clock_ticks() -> u64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .filter(|&t| t > 0)
        .unwrap_or(100)
}

/// CPU use between two samples, in percent of one core (0 when they are
/// of different processes, e.g. across the fault run's restart).
pub fn cpu_percent(a: &ProcSample, b: &ProcSample, ticks_per_sec: u64) -> f64 {
    if a.pid != b.pid {
        return 0.0;
    }
    let secs = b.at.saturating_duration_since(a.at).as_secs_f64();
    if secs <= 0.0 || ticks_per_sec == 0 {
        return 0.0;
    }
    let ticks = b.cpu_ticks.saturating_sub(a.cpu_ticks) as f64;
    100.0 * ticks / ticks_per_sec as f64 / secs
}

/// The soft limit on open files of this process, from `/proc/self/limits`.
pub fn open_files_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stat_with_odd_command_names() {
        let text = "1234 (catan (x) y) S 1 2 3 4 5 6 7 8 9 10 250 75 0 0 20 0 9 0 100 0";
        assert_eq!(parse_stat(text), Some(325));
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn parses_status_fields() {
        let text = "Name:\tcatan-server\nVmHWM:\t  20480 kB\nVmRSS:\t  10240 kB\nThreads:\t3\n";
        assert_eq!(parse_status(text), (10240, 20480, 3));
    }

    #[test]
    fn samples_this_process() {
        let s = sample(std::process::id()).unwrap();
        assert!(s.rss_kib > 0 && s.threads >= 1 && s.fds >= 1);
        assert!(open_files_limit().unwrap_or(1) > 0);
    }
}
