//! CPU time per request, from Linux's own accounting of each process (`/proc/<pid>/stat`).
//!
//! Rates on a shared 2-core machine move between repetitions by more than a change that saves
//! wort a tenth of its work (docs/benchmarks.md, "Reading the figures"), so such a change cannot
//! be seen in them. The CPU each program spent during a run,
//! divided by the requests it answered, moves far less: it is what a request costs, whatever
//! else the machine did meanwhile. It also says where a request's time goes: in wort, in
//! PostgreSQL, or in the load generator, which the ratio R_svc/R_ceil alone cannot.
//!
//! Three meters, read before and after each run:
//! - **wort**: the server process (all its threads).
//! - **PostgreSQL**: the postmaster and every process it started (backends, background
//!   workers), live ones from their own counters, exited ones from the postmaster's count of
//!   its reaped children.
//! - **load**: this process's reaped children (`wrk`, `pgbench`), counted when they exit.

use std::fs;
use std::ops::Sub;
use std::path::Path;

/// Linux reports process times in clock ticks of `USER_HZ`, which is 100 on every
/// architecture Linux supports for user space.
const TICKS_PER_SECOND: f64 = 100.0;

/// Seconds of CPU (user and system) spent so far by each meter.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuTimes {
    pub wort: f64,
    pub postgres: f64,
    pub load: f64,
}

impl Sub for CpuTimes {
    type Output = CpuTimes;

    fn sub(self, earlier: CpuTimes) -> CpuTimes {
        CpuTimes {
            wort: self.wort - earlier.wort,
            postgres: self.postgres - earlier.postgres,
            load: self.load - earlier.load,
        }
    }
}

/// The processes to meter.
pub struct CpuMeters {
    wort: u32,
    postmaster: u32,
}

impl CpuMeters {
    /// Meters for the wort process `wort` and the cluster in `data_dir` (whose postmaster's
    /// pid is the first line of `postmaster.pid`).
    pub fn new(wort: u32, data_dir: &Path) -> Result<CpuMeters, String> {
        let pid_file = data_dir.join("postmaster.pid");
        let text =
            fs::read_to_string(&pid_file).map_err(|e| format!("{}: {e}", pid_file.display()))?;
        let postmaster = text
            .lines()
            .next()
            .and_then(|line| line.trim().parse().ok())
            .ok_or_else(|| format!("{}: no pid on its first line", pid_file.display()))?;
        Ok(CpuMeters { wort, postmaster })
    }

    pub fn read(&self) -> Result<CpuTimes, String> {
        let wort = stat(&self.wort.to_string())
            .ok_or_else(|| format!("wort (pid {}) is gone", self.wort))?;
        // Children first: one reaped between the two reads is then counted twice (a few
        // milliseconds at most) rather than not at all.
        let children: u64 = children_of(self.postmaster)
            .iter()
            .map(|times| times.own)
            .sum();
        let postmaster = stat(&self.postmaster.to_string())
            .ok_or_else(|| format!("PostgreSQL (pid {}) is gone", self.postmaster))?;
        let this = stat("self").ok_or("cannot read /proc/self/stat")?;
        Ok(CpuTimes {
            wort: seconds(wort.own),
            postgres: seconds(postmaster.own + postmaster.reaped_children + children),
            load: seconds(this.reaped_children),
        })
    }
}

impl CpuMeters {
    /// How many processes the postmaster has now.
    pub fn postgres_processes(&self) -> usize {
        children_of(self.postmaster).len()
    }

    /// Waits (up to 2 s) until the postmaster has no more than `processes` processes: until the
    /// backends of a client that just disconnected (pgbench's) have exited and been reaped.
    /// A backend reaped while [`CpuMeters::read`] runs could be counted twice, its lifetime's
    /// CPU once among the live processes and once in the postmaster's count of reaped ones.
    pub fn settle(&self, processes: usize) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while self.postgres_processes() > processes && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

/// Seconds of CPU this process (the bench itself, with its load threads) has spent.
pub fn own_seconds() -> f64 {
    stat("self").map_or(0.0, |ticks| seconds(ticks.own))
}

/// One process's ticks: its own (user + system) and its reaped children's.
struct Ticks {
    parent: u32,
    own: u64,
    reaped_children: u64,
}

fn seconds(ticks: u64) -> f64 {
    ticks as f64 / TICKS_PER_SECOND
}

/// `/proc/<pid>/stat`, or `None` once the process is gone.
fn stat(pid: &str) -> Option<Ticks> {
    let text = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&text)
}

/// The fields after the command name, which is in parentheses and may itself hold spaces and
/// parentheses: field 4 is the parent's pid, 14–17 utime, stime, cutime, cstime (proc(5)).
fn parse_stat(text: &str) -> Option<Ticks> {
    let after_name = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // `fields[0]` is field 3 (the state).
    let field = |n: usize| -> Option<u64> { fields.get(n - 3)?.parse().ok() };
    Some(Ticks {
        parent: u32::try_from(field(4)?).ok()?,
        own: field(14)? + field(15)?,
        reaped_children: field(16)? + field(17)?,
    })
}

/// The live processes whose parent is `parent`.
fn children_of(parent: u32) -> Vec<Ticks> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name();
            let pid = name.to_str()?;
            if !pid.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            stat(pid).filter(|times| times.parent == parent)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_fields_after_a_name_with_spaces_and_parentheses() {
        let line = "4242 (postgres: bench (x) idle) S 17 4242 4242 0 -1 4194368 900 0 0 0 \
                    120 35 7 2 20 0 1 0 123456 0 0";
        let ticks = parse_stat(line).expect("parsed");
        assert_eq!(ticks.parent, 17);
        assert_eq!(ticks.own, 155);
        assert_eq!(ticks.reaped_children, 9);
    }

    #[test]
    fn this_process_can_be_read() {
        let ticks = stat("self").expect("/proc/self/stat");
        assert_eq!(ticks.parent, std::os::unix::process::parent_id());
    }
}
