//! The `tcx worker` processes of a run (soak or memory bench): start, signal, watch, and
//! their peak RSS.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;

/// Where a worker process stands.
#[derive(Debug)]
pub enum State {
    /// Started by us and not signalled.
    Running,
    /// SIGTERM sent at this time; draining.
    Stopping(Instant),
    /// Gone, and how.
    Ended(String),
}

/// One `tcx worker` process.
#[derive(Debug)]
pub struct WorkerProc {
    /// `w0`, `w1`, … in start order.
    pub name: String,
    /// Its metrics port on 127.0.0.1.
    pub port: u16,
    /// Its process id.
    pub pid: u32,
    child: Child,
    /// Where it stands.
    pub state: State,
    /// Largest `VmHWM` (peak resident set) seen, in KiB.
    pub peak_kib: u64,
}

impl WorkerProc {
    fn alive(&self) -> bool {
        !matches!(self.state, State::Ended(_))
    }

    /// Reads `VmHWM` from /proc (absent once the process has exited) and keeps the maximum.
    fn poll_rss(&mut self) {
        let kib = status_kib(self.pid, "VmHWM");
        self.peak_kib = self.peak_kib.max(kib.unwrap_or(0));
    }

    /// Sends `signal` (`KILL`, `TERM`) with the `kill` command, after a last look at the RSS.
    fn signal(&mut self, signal: &str) -> anyhow::Result<()> {
        self.poll_rss();
        let status = Command::new("kill")
            .args([format!("-{signal}"), self.pid.to_string()])
            .status()
            .context("cannot run kill")?;
        anyhow::ensure!(status.success(), "kill -{signal} {} failed", self.pid);
        Ok(())
    }

    /// Looks at a live process once: RSS, and whether it exited. Returns a problem to report.
    fn check(&mut self, stop_timeout: Duration) -> anyhow::Result<Option<String>> {
        self.poll_rss();
        let exited = self.child.try_wait()?;
        let stopping = match self.state {
            State::Stopping(since) => Some(since),
            _ => None,
        };
        let (what, problem) = match (stopping, exited) {
            (None, Some(status)) => (format!("exited on its own ({status})"), true),
            (Some(since), Some(status)) => {
                let secs = since.elapsed().as_secs_f64();
                let what = format!("SIGTERM, exit seen within {secs:.1} s ({status})");
                (what, !status.success())
            }
            (Some(since), None) if since.elapsed() > stop_timeout => {
                self.signal("KILL")?;
                self.child.wait()?;
                let secs = stop_timeout.as_secs();
                (
                    format!("still running {secs} s after SIGTERM: killed"),
                    true,
                )
            }
            _ => return Ok(None),
        };
        let problem = problem.then(|| format!("{} (pid {}): {what}", self.name, self.pid));
        self.state = State::Ended(what);
        Ok(problem)
    }
}

/// A memory figure of a live process from `/proc/PID/status` in KiB: `VmHWM` (peak resident
/// set), `VmRSS` (resident now), … `None` once the process is gone.
pub fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        (name == field).then_some(value)
    })?;
    line.trim().trim_end_matches("kB").trim().parse().ok()
}

/// The worker processes of a run, all that were ever started. Dropping it kills the ones
/// still alive.
#[derive(Debug)]
pub struct Fleet {
    tcx: PathBuf,
    env: Vec<(String, String)>,
    log_dir: PathBuf,
    next_port: u16,
    /// Longest wait for a worker to exit after SIGTERM.
    stop_timeout: Duration,
    /// Every process started, in order.
    pub procs: Vec<WorkerProc>,
    /// Misbehaviour seen: exits on their own, unclean or missing exits after SIGTERM.
    pub problems: Vec<String>,
}

impl Fleet {
    /// A fleet running `tcx worker` with `env` (plus the metrics address), writing each
    /// process's log to `log_dir`, with metrics ports from `first_port` up.
    pub fn new(
        tcx: PathBuf,
        env: Vec<(String, String)>,
        log_dir: PathBuf,
        first_port: u16,
        stop_timeout: Duration,
    ) -> Fleet {
        Fleet {
            tcx,
            env,
            log_dir,
            next_port: first_port,
            stop_timeout,
            procs: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// Starts a worker process on the next free metrics port. Inherited `TCX__…` variables
    /// are dropped, so only this run's settings apply.
    pub fn spawn(&mut self, note: &str) -> anyhow::Result<()> {
        while TcpListener::bind(("127.0.0.1", self.next_port)).is_err() {
            self.next_port = self.next_port.checked_add(1).context("no free port")?;
        }
        let port = self.next_port;
        self.next_port = port.saturating_add(1);
        let name = format!("w{}", self.procs.len());
        let log = std::fs::File::create(self.log_dir.join(format!("{name}.log")))?;
        let mut cmd = Command::new(&self.tcx);
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("TCX__") {
                cmd.env_remove(key);
            }
        }
        let child = cmd
            .arg("worker")
            .envs(self.env.iter().cloned())
            .env("TCX__METRICS__ADDRESS", format!("127.0.0.1:{port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .with_context(|| format!("cannot start {}", self.tcx.display()))?;
        let pid = child.id();
        println!("  started {name} (pid {pid}, metrics 127.0.0.1:{port}){note}");
        self.procs.push(WorkerProc {
            name,
            port,
            pid,
            child,
            state: State::Running,
            peak_kib: 0,
        });
        Ok(())
    }

    /// Running (not signalled) processes.
    pub fn running(&self) -> usize {
        let running = |p: &&WorkerProc| matches!(p.state, State::Running);
        self.procs.iter().filter(running).count()
    }

    /// Samples the RSS of every live process and notes the ones that exited. A worker that
    /// exited on its own is a problem and, when `replace`, gets a replacement.
    pub fn poll(&mut self, replace: bool) -> anyhow::Result<()> {
        let mut lost = Vec::new();
        for p in self.procs.iter_mut().filter(|p| p.alive()) {
            let was_running = matches!(p.state, State::Running);
            if let Some(problem) = p.check(self.stop_timeout)? {
                println!("  worker problem: {problem}");
                self.problems.push(problem);
                if was_running {
                    lost.push(p.name.clone());
                }
            }
        }
        if replace {
            for name in lost {
                self.spawn(&format!(" replacing {name}"))?;
            }
        }
        Ok(())
    }

    /// The first running worker.
    fn pick(&mut self) -> anyhow::Result<&mut WorkerProc> {
        let running = |p: &&mut WorkerProc| matches!(p.state, State::Running);
        self.procs
            .iter_mut()
            .find(running)
            .context("no running worker")
    }

    /// `kill -9` a running worker; returns its name.
    pub fn kill9(&mut self, note: &str) -> anyhow::Result<String> {
        let p = self.pick()?;
        p.signal("KILL")?;
        p.child.wait()?;
        p.state = State::Ended(format!("kill -9 {note}"));
        Ok(p.name.clone())
    }

    /// SIGTERM a running worker; returns its name. [`Fleet::poll`] sees it exit once it has
    /// drained.
    pub fn term(&mut self) -> anyhow::Result<String> {
        let p = self.pick()?;
        p.signal("TERM")?;
        p.state = State::Stopping(Instant::now());
        Ok(p.name.clone())
    }

    /// SIGTERM every running worker and wait until all have exited.
    pub fn stop_all(&mut self) -> anyhow::Result<()> {
        for p in &mut self.procs {
            if matches!(p.state, State::Running) {
                p.signal("TERM")?;
                p.state = State::Stopping(Instant::now());
            }
        }
        while self.procs.iter().any(WorkerProc::alive) {
            std::thread::sleep(Duration::from_millis(250));
            self.poll(false)?;
        }
        Ok(())
    }

    /// `kill -9` every process still alive (a run that stopped early).
    pub fn kill_all(&mut self) {
        for p in self.procs.iter_mut().filter(|p| p.alive()) {
            let _ = p.signal("KILL");
            let _ = p.child.wait();
            p.state = State::Ended("killed: the run stopped early".into());
        }
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        self.kill_all();
    }
}
