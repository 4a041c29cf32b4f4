//! Timed steps and their summary.

use std::{
    process::Command,
    time::{Duration, Instant},
};

pub struct Outcome {
    name: &'static str,
    ok: bool,
    took: Duration,
}

#[derive(Default)]
pub struct Steps {
    outcomes: Vec<Outcome>,
}

impl Steps {
    /// Runs `command` with the terminal attached and records whether it succeeded.
    pub fn command(&mut self, name: &'static str, command: &mut Command) -> bool {
        self.timed(name, || match command.status() {
            Ok(status) if status.success() => Ok(()),
            Ok(status) => Err(format!("{} exited with {status}", describe(command))),
            Err(error) => Err(format!("could not run {}: {error}", describe(command))),
        })
        .is_some()
    }

    /// Runs `work`, recording its outcome; an error is printed.
    pub fn timed<T>(
        &mut self,
        name: &'static str,
        work: impl FnOnce() -> Result<T, String>,
    ) -> Option<T> {
        eprintln!("\n==> {name}");
        let started = Instant::now();
        let result = work();
        let took = started.elapsed();
        if let Err(error) = &result {
            eprintln!("xtask: {name} failed: {error}");
        }
        self.outcomes.push(Outcome {
            name,
            ok: result.is_ok(),
            took,
        });
        result.ok()
    }

    pub fn all_ok(&self) -> bool {
        self.outcomes.iter().all(|o| o.ok)
    }

    pub fn print_summary(&self) {
        eprintln!("\nxtask test summary:");
        for o in &self.outcomes {
            let status = if o.ok { "ok" } else { "FAILED" };
            eprintln!(
                "  {:<12} {:<7} {:>8.1}s",
                o.name,
                status,
                o.took.as_secs_f64()
            );
        }
        let total: Duration = self.outcomes.iter().map(|o| o.took).sum();
        eprintln!(
            "  {:<12} {:<7} {:>8.1}s",
            "total",
            if self.all_ok() { "ok" } else { "FAILED" },
            total.as_secs_f64()
        );
    }
}

fn describe(command: &Command) -> String {
    let mut words = vec![command.get_program().to_string_lossy().into_owned()];
    words.extend(command.get_args().map(|a| a.to_string_lossy().into_owned()));
    format!("`{}`", words.join(" "))
}
