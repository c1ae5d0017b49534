//! Production hardening (issue 16), each item through the `tcx` binary as an operator runs
//! it: bounded input on every source, NUL bytes, quiet and machine-readable logs, several
//! workers per host, wrong broker credentials, batch exit codes, clear CLI errors.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use flate2::{Compression, write::GzEncoder};

const PAGE: &str = "<html><head><title>AGB</title></head><body><nav>Start Shop</nav><div>\
    <h2>1. Geltungsbereich</h2><p>Diese Bedingungen gelten für alle Bestellungen in unserem \
    Shop und für alle Verträge mit unseren Kunden.</p><h2>2. Vertragsschluss</h2><p>Der \
    Vertrag kommt mit der Bestätigung der Bestellung durch uns per E-Mail zustande.</p>\
    </div></body></html>";

fn tcx() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tcx"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    for (k, _) in std::env::vars() {
        if k.starts_with("TCX__") || k == "RUST_LOG" {
            c.env_remove(k);
        }
    }
    c
}

fn run(c: &mut Command) -> Output {
    c.stdin(Stdio::null()).output().expect("tcx runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tcx-hardening-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `len` zero bytes, gzip-compressed (about a thousandth of the size).
fn gzip_bomb(len: usize) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::fast());
    let chunk = vec![0u8; 1 << 20];
    for _ in 0..len / chunk.len() {
        enc.write_all(&chunk).unwrap();
    }
    enc.finish().unwrap()
}

#[test]
fn gzip_bombs_are_refused_from_files_stdin_and_batch() {
    let dir = temp_dir("bomb");
    // 200 MiB unpacked from about 200 KiB: refused at the 10 MiB input limit.
    let bomb = gzip_bomb(200 << 20);
    assert!(bomb.len() < 1 << 20);
    let file = dir.join("bomb.html.gz");
    std::fs::write(&file, &bomb).unwrap();
    let started = Instant::now();
    let o = run(tcx().args(["extract", file.to_str().unwrap()]));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("larger than 10485760 bytes"),
        "{}",
        text(&o.stderr)
    );
    // Standard input, with a smaller limit from the configuration.
    let mut child = tcx()
        .args(["extract", "-"])
        .env("TCX__FETCH__MAX_BODY_BYTES", "1000000")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&bomb);
    });
    let o = child.wait_with_output().unwrap();
    let _ = writer.join();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("larger than 1000000 bytes"),
        "{}",
        text(&o.stderr)
    );
    // A batch over a directory: the bomb is a too_large result, the good page is ok, and the
    // batch says so with its exit code.
    let pages = dir.join("pages");
    std::fs::create_dir_all(&pages).unwrap();
    std::fs::rename(&file, pages.join("bomb.html.gz")).unwrap();
    std::fs::write(pages.join("agb.html"), PAGE).unwrap();
    let out = dir.join("results.jsonl");
    let o = run(tcx().args([
        "batch",
        "--quiet",
        "--input",
        pages.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let results = std::fs::read_to_string(&out).unwrap();
    assert!(results.contains("\"kind\":\"too_large\""), "{results}");
    assert!(results.contains("\"status\":\"ok\""), "{results}");
    // The whole test reads at most a few MiB: no 200 MiB buffer was ever filled.
    assert!(started.elapsed() < Duration::from_secs(60));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_stray_nul_byte_does_not_make_a_page_binary() {
    let dir = temp_dir("nul");
    let page = PAGE
        .replace("<nav>", "\0<nav>")
        .replace("Shop und", "Shop\0 und");
    let file = dir.join("nul.html");
    std::fs::write(&file, page).unwrap();
    let o = run(tcx().args(["extract", "--format", "text", file.to_str().unwrap()]));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("in unserem Shop und für alle"), "{out}");
    assert!(!out.contains('\0'));
    // Real binary data is still refused.
    let bin: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 256) as u8).collect();
    std::fs::write(dir.join("bin.html"), bin).unwrap();
    let o = run(tcx().args(["extract", dir.join("bin.html").to_str().unwrap()]));
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(dir);
}

/// A CSS sheet simplecss warns about (selectors it does not support).
const NOISY_CSS: &str = "<style>a:hover::before{color:red} p:nth-child(2n+1){font-weight:bold} \
    div>p:not(.x){color:blue} .a:is(.b){color:red}</style>";

#[test]
fn rust_log_info_keeps_dependency_noise_out_and_json_logs_are_json() {
    let dir = temp_dir("logs");
    let pages = dir.join("pages");
    std::fs::create_dir_all(&pages).unwrap();
    let page = PAGE.replace("</head>", &format!("{NOISY_CSS}</head>"));
    for i in 0..3 {
        std::fs::write(pages.join(format!("p{i}.html")), &page).unwrap();
    }
    let batch = |rust_log: &str, format: &str| {
        run(tcx()
            .args(["batch", "--quiet", "--input", pages.to_str().unwrap()])
            .args(["--output", dir.join("out.jsonl").to_str().unwrap()])
            .env("RUST_LOG", rust_log)
            .env("TCX__LOG__FORMAT", format))
    };
    // The dependency does warn when asked to: the check below is not vacuous.
    let asked = batch("info,simplecss=warn", "text");
    assert!(asked.status.success(), "{}", text(&asked.stderr));
    assert!(
        text(&asked.stderr).contains("simplecss"),
        "{}",
        text(&asked.stderr)
    );
    let quiet = batch("info", "text");
    assert!(quiet.status.success());
    let err = text(&quiet.stderr);
    assert!(!err.contains("simplecss"), "{err}");
    // Not a terminal: no colour codes.
    assert!(!err.contains('\u{1b}'), "{err:?}");
    // JSON: every log line is one object.
    let json = batch("info,simplecss=warn", "json");
    let err = text(&json.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with('{')).collect();
    assert!(!lines.is_empty(), "{err}");
    for l in lines {
        let v: serde_json::Value = serde_json::from_str(l).expect("a JSON log line");
        assert!(v.get("level").is_some() && v.get("fields").is_some(), "{l}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Reads a child's standard error until `pred` holds or `timeout` passes; kills the child.
fn stderr_until(mut child: Child, timeout: Duration, pred: impl Fn(&str) -> bool) -> String {
    let mut err = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = err.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + timeout;
    let mut out = Vec::new();
    while Instant::now() < deadline && !pred(&text(&out)) {
        if let Ok(chunk) = rx.recv_timeout(Duration::from_millis(100)) {
            out.extend(chunk);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    text(&out)
}

fn broker_listens() -> bool {
    let addr: SocketAddr = "127.0.0.1:5672".parse().unwrap();
    let up = TcpStream::connect_timeout(&addr, Duration::from_millis(500)).is_ok();
    assert!(
        up || std::env::var("TCX_REQUIRE_BROKER").as_deref() != Ok("1"),
        "TCX_REQUIRE_BROKER=1 but no RabbitMQ listens at {addr}"
    );
    if !up {
        eprintln!("note: skipped: no RabbitMQ at {addr}");
    }
    up
}

#[test]
fn wrong_credentials_give_one_clear_line_per_attempt() {
    if !broker_listens() {
        return;
    }
    let child = tcx()
        .arg("worker")
        .env("RUST_LOG", "info")
        .env("TCX__AMQP__URL", "amqp://guest:wrong@127.0.0.1:5672/%2f")
        .env("TCX__AMQP__RECONNECT_INITIAL_MS", "100")
        .env("TCX__AMQP__RECONNECT_MAX_MS", "400")
        .env("TCX__METRICS__ENABLED", "false")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let err = stderr_until(child, Duration::from_secs(20), |e| {
        e.matches("cannot connect to the broker").count() >= 4
    });
    let attempts = err.matches("cannot connect to the broker").count();
    assert!(attempts >= 4, "{err}");
    assert_eq!(
        err.matches("authentication refused").count(),
        attempts,
        "{err}"
    );
    // Nothing else: no ERROR lines from the AMQP library between the attempts.
    let other = err
        .lines()
        .filter(|l| !l.contains("cannot connect to the broker") && !l.trim().is_empty())
        .count();
    assert!(other <= 1, "{err}");
    // The backoff grows to its cap: later attempts say 400ms.
    assert!(err.contains("retry_in=400ms"), "{err}");
}

#[test]
fn two_workers_on_one_host_with_metrics_port_zero() {
    if !broker_listens() {
        return;
    }
    let prefix = format!("t.ports.{}", std::process::id());
    let spawn = || {
        tcx()
            .arg("worker")
            .env("RUST_LOG", "info")
            .env("TCX__METRICS__ADDRESS", "127.0.0.1:0")
            .env("TCX__AMQP__JOBS_EXCHANGE", format!("{prefix}.jobs"))
            .env("TCX__AMQP__JOBS_QUEUE", format!("{prefix}.jobs"))
            .env("TCX__AMQP__RESULTS_EXCHANGE", format!("{prefix}.results"))
            .env("TCX__AMQP__RESULTS_QUEUE", format!("{prefix}.results"))
            .env("TCX__AMQP__RETRY_QUEUE_PREFIX", format!("{prefix}.retry"))
            .env("TCX__AMQP__DEAD_LETTER_EXCHANGE", format!("{prefix}.dead"))
            .env("TCX__AMQP__DEAD_LETTER_QUEUE", format!("{prefix}.dead"))
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let listening = |e: &str| e.contains("metrics endpoint listening") && e.contains("consuming");
    let addr_of = |err: &str| -> SocketAddr {
        let line = err
            .lines()
            .find(|l| l.contains("metrics endpoint listening"))
            .unwrap_or_else(|| panic!("{err}"));
        let at = line.find("addr=").expect("addr field") + "addr=".len();
        line[at..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .expect("an address")
    };
    let (tx, rx) = std::sync::mpsc::channel();
    for child in [a, b] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut child = child;
            let mut err = child.stderr.take().unwrap();
            let mut seen = Vec::new();
            let mut buf = [0u8; 4096];
            let deadline = Instant::now() + Duration::from_secs(20);
            while Instant::now() < deadline && !listening(&text(&seen)) {
                match err.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => seen.extend_from_slice(&buf[..n]),
                }
            }
            let err_text = text(&seen);
            let health = if listening(&err_text) {
                let addr = addr_of(&err_text);
                http_get(addr, "/healthz")
            } else {
                String::new()
            };
            let _ = child.kill();
            let _ = child.wait();
            let _ = tx.send((err_text, health));
        });
    }
    drop(tx);
    let got: Vec<(String, String)> = rx.iter().collect();
    assert_eq!(got.len(), 2);
    let mut ports = Vec::new();
    for (err, health) in &got {
        let addr = addr_of(err);
        assert_ne!(addr.port(), 0);
        assert!(health.contains("200 OK"), "{health}");
        assert!(health.contains(&format!("metrics: {addr}")), "{health}");
        ports.push(addr.port());
    }
    assert_ne!(ports[0], ports[1]);
}

fn http_get(addr: SocketAddr, path: &str) -> String {
    let Ok(mut s) = TcpStream::connect_timeout(&addr, Duration::from_secs(2)) else {
        return String::new();
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let _ = write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    );
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out
}

#[test]
fn batch_exit_code_says_whether_jobs_failed() {
    let dir = temp_dir("exit");
    let pages = dir.join("pages");
    std::fs::create_dir_all(&pages).unwrap();
    std::fs::write(pages.join("empty.html"), "").unwrap();
    std::fs::write(pages.join("pdf.html"), "%PDF-1.7 binary").unwrap();
    let out = dir.join("out.jsonl");
    let args = [
        "batch",
        "--quiet",
        "--input",
        pages.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ];
    let o = run(tcx().args(args));
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("2 of 2 jobs failed"), "{err}");
    // The rate counts analysed pages only: none here.
    assert!(err.contains("pages/s (ok pages): 0.0"), "{err}");
    let o = run(tcx().args(args).arg("--allow-failures"));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    // All ok: exit 0 without the flag.
    std::fs::write(pages.join("empty.html"), PAGE).unwrap();
    std::fs::write(pages.join("pdf.html"), PAGE).unwrap();
    assert_eq!(run(tcx().args(args)).status.code(), Some(0));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn clear_errors_for_schemes_config_files_and_a_missing_corpus() {
    let o = run(tcx().args(["extract", "ftp://x/"]));
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("unsupported URL scheme"), "{err}");
    assert!(!err.contains("No such file"), "{err}");

    let dir = temp_dir("config");
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, "[extraction\nthreshold = ").unwrap();
    // Run from another directory with a relative path: the message names the real file.
    let o = run(tcx()
        .current_dir(&dir)
        .args(["--config", "broken.toml", "extract", "-"]));
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains(&broken.display().to_string()), "{err}");

    // `../shared/corpus` from a directory whose parent holds no corpus.
    let deep = dir.join("deep");
    std::fs::create_dir_all(&deep).unwrap();
    let o = run(tcx().current_dir(&deep).arg("eval"));
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("--corpus"), "{err}");
    assert!(err.contains(&deep.display().to_string()), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
