//! `tcx batch`: the worker pipeline on an in-process queue, against the loopback
//! [`TestServer`] and a temporary directory of pages. No broker.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use tcx::config::Settings;
use tcx::job::{ResultMessage, WorkItem, parse_job_list, read_job_list};
use tcx::telemetry::Metrics;
use tcx::worker::{BatchOptions, Pipeline, run_batch};
use tcx_core::Status;

use crate::support::{Route, TestServer, gzip};

pub(crate) fn fixture_html() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/demo-shop.html"
    ))
    .expect("fixture")
}

/// Settings for loopback tests: private networks allowed, short timeouts, fast retries.
pub(crate) fn loopback_settings(extra: &[(&str, &str)]) -> Settings {
    let mut env: HashMap<String, String> = [
        ("TCX__FETCH__ALLOW_PRIVATE_NETWORKS", "true"),
        ("TCX__FETCH__TIMEOUT_SECS", "1"),
        ("TCX__FETCH__CONNECT_TIMEOUT_SECS", "1"),
        ("TCX__FETCH__MAX_BODY_BYTES", "262144"),
        ("TCX__WORKER__MAX_RETRIES", "1"),
        ("TCX__WORKER__RETRY_BASE_DELAY_MS", "50"),
        ("TCX__WORKER__CONCURRENCY", "8"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for (k, v) in extra {
        env.insert(k.to_string(), v.to_string());
    }
    Settings::load_with_env(None, Some(env)).expect("settings")
}

/// The routes every worker/batch test serves: good pages and each kind of failure.
pub(crate) fn failure_routes() -> Vec<(&'static str, Route)> {
    let html = fixture_html();
    vec![
        ("/agb", Route::html(html.clone())),
        ("/missing", Route::status(404)),
        (
            "/agb.pdf",
            Route::new(200, b"%PDF-1.7\n1 0 obj\n".to_vec()).content_type("application/pdf"),
        ),
        ("/huge", Route::html(vec![b'x'; 300 * 1024])),
        ("/slow", Route::html(html).delay(Duration::from_secs(3))),
        ("/busy", Route::status(503)),
    ]
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tcx-batch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

async fn batch(
    settings: &Settings,
    items: Vec<WorkItem>,
) -> (Vec<ResultMessage>, tcx::worker::BatchSummary) {
    let metrics = Arc::new(Metrics::new().expect("metrics"));
    let pipeline = Arc::new(Pipeline::new(settings, metrics).expect("pipeline"));
    let mut options = BatchOptions::from_settings(&settings.worker);
    options.progress = false;
    let mut out = Vec::new();
    let summary = run_batch(pipeline, items, &options, &mut out)
        .await
        .expect("batch");
    let results = String::from_utf8(out)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("result JSON"))
        .collect();
    (results, summary)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_over_urls_gives_one_result_per_job_with_error_kinds() {
    let server = TestServer::start(failure_routes());
    let mut list = String::from("# pages\n");
    for path in ["/agb", "/missing", "/agb.pdf", "/huge", "/slow", "/busy"] {
        list.push_str(&server.url(path));
        list.push('\n');
    }
    for i in 0..20 {
        list.push_str(&server.url(&format!("/agb?copy={i}")));
        list.push('\n');
    }
    let jobs = parse_job_list(&list).expect("list");
    assert_eq!(jobs.items.len(), 26);
    let settings = loopback_settings(&[]);
    let (results, summary) = batch(&settings, jobs.items.clone()).await;
    assert_eq!(results.len(), 26);
    assert_eq!(summary.total, 26);
    assert_eq!(summary.ok, 21, "{}", summary.render());
    let by_id: HashMap<&str, &ResultMessage> = results
        .iter()
        .map(|r| (r.document.job_id.as_deref().expect("job id"), r))
        .collect();
    assert_eq!(by_id.len(), 26, "one result per job id");
    let kind = |path: &str| {
        let id = tcx::job::url_job_id(&server.url(path));
        let r = by_id[id.as_str()];
        (r.document.error.as_ref().map(|e| e.kind.clone()), r.attempt)
    };
    assert_eq!(kind("/agb"), (None, 1));
    assert_eq!(kind("/missing"), (Some("http_status".into()), 1));
    assert_eq!(kind("/agb.pdf"), (Some("not_html".into()), 1));
    assert_eq!(kind("/huge"), (Some("too_large".into()), 1));
    // Transient failures are retried once (max_retries = 1), then reported.
    assert_eq!(kind("/slow"), (Some("timeout".into()), 2));
    assert_eq!(kind("/busy"), (Some("http_status".into()), 2));
    assert_eq!(server.hits("/busy"), 2);
    assert_eq!(summary.retries, 2);
    assert_eq!(summary.errors.get("http_status"), Some(&2));
    let ok = by_id[tcx::job::url_job_id(&server.url("/agb")).as_str()];
    assert_eq!(ok.document.status, Status::Ok);
    assert!(!ok.document.sections.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_over_a_directory_analyses_files_inline() {
    let dir = temp_dir("dir");
    let html = fixture_html();
    std::fs::write(dir.join("a.html"), &html).unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/b.html.gz"), gzip(html.as_bytes())).unwrap();
    std::fs::write(dir.join("empty.html"), b"").unwrap();
    std::fs::write(dir.join("notes.txt"), b"ignored").unwrap();
    let list = read_job_list(&dir).expect("dir list");
    let ids: Vec<&str> = list.items.iter().map(WorkItem::job_id).collect();
    assert_eq!(ids, ["a.html", "empty.html", "sub/b.html.gz"]);
    let (results, summary) = batch(&loopback_settings(&[]), list.items).await;
    assert_eq!((summary.total, summary.ok), (3, 2), "{}", summary.render());
    assert_eq!(summary.errors.get("empty"), Some(&1));
    let a = results
        .iter()
        .find(|r| r.document.job_id.as_deref() == Some("a.html"))
        .expect("a.html");
    let b = results
        .iter()
        .find(|r| r.document.job_id.as_deref() == Some("sub/b.html.gz"))
        .expect("b");
    assert_eq!(a.document.sections, b.document.sections);
    assert!(
        a.document
            .source
            .url
            .as_deref()
            .unwrap_or_default()
            .starts_with("file:///")
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_concurrency_is_bounded() {
    // 12 pages that each take 300 ms to answer, concurrency 4: the server counts the requests
    // it is answering at once; it must see 4 at some point and never more.
    let html = fixture_html();
    let routes: Vec<(String, Route)> = (0..12)
        .map(|i| {
            (
                format!("/p{i}"),
                Route::html(html.clone()).delay(Duration::from_millis(300)),
            )
        })
        .collect();
    let server = TestServer::start(routes.iter().map(|(p, r)| (p.as_str(), r.clone())));
    let list: String = (0..12)
        .map(|i| server.url(&format!("/p{i}")) + "\n")
        .collect();
    let settings = loopback_settings(&[
        ("TCX__WORKER__CONCURRENCY", "4"),
        ("TCX__WORKER__PER_HOST_LIMIT", "100"),
        ("TCX__FETCH__TIMEOUT_SECS", "10"),
    ]);
    let (results, summary) = batch(&settings, parse_job_list(&list).unwrap().items).await;
    assert_eq!((results.len(), summary.ok), (12, 12));
    assert_eq!(server.max_in_flight(), 4);
    assert!(summary.pages_per_second() > 0.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_host_limit_serialises_one_host() {
    let html = fixture_html();
    let server = TestServer::start([("/p", Route::html(html).delay(Duration::from_millis(200)))]);
    let list: String = (0..4)
        .map(|i| server.url(&format!("/p?{i}")) + "\n")
        .collect();
    // A generous timeout: the four requests queue for one host slot, and a loaded machine
    // must not turn the wait into a timeout.
    let settings = loopback_settings(&[
        ("TCX__WORKER__PER_HOST_LIMIT", "1"),
        ("TCX__FETCH__TIMEOUT_SECS", "10"),
    ]);
    let (_, summary) = batch(&settings, parse_job_list(&list).unwrap().items).await;
    assert_eq!(summary.ok, 4);
    assert_eq!(server.max_in_flight(), 1);
}

#[test]
fn batch_cli_writes_jsonl_and_a_summary() {
    let dir = temp_dir("cli");
    let pages = dir.join("pages");
    std::fs::create_dir_all(&pages).unwrap();
    for i in 0..5 {
        std::fs::write(pages.join(format!("p{i}.html")), fixture_html()).unwrap();
    }
    let out = dir.join("results.jsonl");
    let output = Command::new(env!("CARGO_BIN_EXE_tcx"))
        .args(["batch", "--input"])
        .arg(&pages)
        .arg("--output")
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .expect("tcx runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("jobs: 5\nok: 5\nerrors: 0\n"), "{stderr}");
    assert!(stderr.contains("pages/s (ok pages): "), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 5);
    for line in text.lines() {
        let r: ResultMessage = serde_json::from_str(line).unwrap();
        assert_eq!(r.document.status, Status::Ok);
    }
    let _ = std::fs::remove_dir_all(dir);
}
