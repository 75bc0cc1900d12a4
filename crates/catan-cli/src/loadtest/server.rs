//! Starting, killing and restarting the server binary (`--spawn-server`).
//!
//! The server gets its settings through environment variables (documented
//! in its `--help`): the bind address from `--url`, `DATABASE_URL`, lobby
//! limits large enough for the run, and a quiet log level, since logging
//! every socket at thousands of connections costs measurable CPU.

use super::http::HttpConn;
use hyper::Method;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::process::{Child, Command};

/// How long the server has to answer `/healthz` after a start.
const START_TIMEOUT: Duration = Duration::from_secs(120);

/// A server process this tool started.
pub struct Spawned {
    binary: PathBuf,
    env: Vec<(String, String)>,
    args: Vec<String>,
    log: PathBuf,
    addr: SocketAddr,
    child: Option<Child>,
    data_dir: Option<PathBuf>,
}

impl Spawned {
    /// Describes the server to run; nothing starts yet.
    pub fn new(
        binary: &Path,
        addr: SocketAddr,
        database_url: Option<&str>,
        lobbies: usize,
        log_level: &str,
        log: PathBuf,
    ) -> Spawned {
        let limit = (lobbies + 64).to_string();
        let mut env = vec![
            ("CATAN_BIND".to_string(), addr.to_string()),
            ("CATAN_MAX_LOBBIES".to_string(), limit.clone()),
            ("CATAN_MAX_LOBBIES_PER_CLIENT".to_string(), limit),
            // Setting up thousands of lobbies is a burst of POSTs from a few
            // addresses: lift the per-address HTTP limit for the benchmark.
            ("CATAN_HTTP_RATE_PER_SEC".to_string(), "100000".to_string()),
            ("CATAN_HTTP_RATE_BURST".to_string(), "100000".to_string()),
        ];
        // Without a DATABASE_URL the server keeps a SQLite file in its data
        // directory: give it a fresh one of ours rather than the current
        // directory's, and reuse it across the fault run's restart.
        let data_dir = match database_url {
            Some(url) => {
                env.push(("DATABASE_URL".to_string(), url.to_string()));
                None
            }
            None => {
                let dir = std::env::temp_dir()
                    .join(format!("catan-loadtest-data-{}", std::process::id()));
                env.push(("CATAN_DATA_DIR".to_string(), dir.display().to_string()));
                Some(dir)
            }
        };
        Spawned {
            binary: binary.to_path_buf(),
            env,
            args: vec!["--log".into(), log_level.into()],
            log,
            addr,
            child: None,
            data_dir,
        }
    }

    /// Makes the server node `id` of a cluster, reached at `url`.
    pub fn as_node(mut self, id: &str, url: &str) -> Spawned {
        self.env.push(("CATAN_NODE_ID".to_string(), id.to_string()));
        self.env
            .push(("CATAN_NODE_URL".to_string(), url.to_string()));
        self
    }

    /// Where the server's output goes.
    pub fn log_path(&self) -> &Path {
        &self.log
    }

    /// The running server's process id.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().and_then(|c| c.id())
    }

    /// Starts the server and waits until `/healthz` answers.
    pub async fn start(&mut self) -> Result<Duration, String> {
        let t0 = Instant::now();
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .map_err(|e| format!("cannot open {}: {e}", self.log.display()))?;
        let err = log
            .try_clone()
            .map_err(|e| format!("cannot open {}: {e}", self.log.display()))?;
        let mut cmd = Command::new(&self.binary);
        cmd.args(&self.args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::from(log))
            .stderr(Stdio::from(err))
            .kill_on_drop(true);
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        let child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.binary.display()))?;
        self.child = Some(child);
        self.wait_healthy(t0).await?;
        Ok(t0.elapsed())
    }

    async fn wait_healthy(&mut self, t0: Instant) -> Result<(), String> {
        loop {
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                return Err(format!(
                    "the server exited during start ({status}); see {}",
                    self.log.display()
                ));
            }
            if let Ok(mut c) = HttpConn::connect(self.addr, None).await
                && let Ok(r) = c.request(Method::GET, "/healthz", None, None).await
                && r.status == 200
            {
                return Ok(());
            }
            if t0.elapsed() > START_TIMEOUT {
                return Err(format!(
                    "the server did not answer /healthz within {START_TIMEOUT:?}; see {}",
                    self.log.display()
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// SIGKILLs the server and waits for it to die.
    pub async fn kill(&mut self) -> Result<(), String> {
        if let Some(mut child) = self.child.take() {
            // `start_kill` sends SIGKILL on Unix: no graceful shutdown.
            child
                .start_kill()
                .map_err(|e| format!("cannot kill the server: {e}"))?;
            child
                .wait()
                .await
                .map_err(|e| format!("cannot reap the server: {e}"))?;
        }
        Ok(())
    }

    /// Stops the server at the end of the run: SIGTERM, then SIGKILL if it
    /// has not exited within ten seconds; removes the data directory this
    /// tool made for it.
    pub async fn stop(&mut self) {
        if let Some(pid) = self.pid() {
            // Best effort: `kill` may be missing; SIGKILL follows anyway.
            let _ = Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status()
                .await;
            if let Some(child) = self.child.as_mut() {
                let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
            }
        }
        // Best effort at the end of a run.
        let _ = self.kill().await;
        if let Some(dir) = &self.data_dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    /// The SQLite data directory this tool chose, when no DATABASE_URL was given.
    pub fn data_dir(&self) -> Option<&Path> {
        self.data_dir.as_deref()
    }
}
