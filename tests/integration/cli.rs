//! The `tcx` binary as a user runs it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::support::{Route, TestServer, closed_port};
use tcx::Document;

fn tcx() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tcx"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    // Keep the caller's TCX__ variables out of the tests.
    for (k, _) in std::env::vars() {
        if k.starts_with("TCX__") {
            c.env_remove(k);
        }
    }
    c
}

fn run(c: &mut Command) -> Output {
    c.stdin(Stdio::null()).output().expect("tcx runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn fixture() -> &'static str {
    "tests/fixtures/demo-shop.html"
}

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tcx-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn extract_a_file_prints_a_compact_document() {
    let o = run(tcx().args(["extract", fixture()]));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), 1, "compact by default");
    let doc: Document = serde_json::from_str(&out).unwrap();
    assert_eq!(doc.status, tcx_core::Status::Ok);
    assert_eq!(
        doc.sections[0].title.as_deref(),
        Some("Terms and Conditions")
    );
    assert!(doc.source.url.unwrap().starts_with("file:///"));
    assert!(doc.extracted_at.ends_with('Z'));
}

#[test]
fn pretty_and_text_formats() {
    let o = run(tcx().args(["extract", "--pretty", fixture()]));
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.lines().count() > 20);
    serde_json::from_str::<Document>(&out).unwrap();
    let o = run(tcx().args(["extract", "--format", "text", fixture()]));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with("# Terms and Conditions\n  # 1. Lorem Ipsum\n"),
        "{out}"
    );
}

#[test]
fn document_matches_the_published_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/document.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let o = run(tcx().args(["extract", fixture()]));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let required = |v: &serde_json::Value| -> Vec<String> {
        v["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect()
    };
    for key in required(&schema) {
        assert!(doc.get(&key).is_some(), "missing {key}");
    }
    for key in doc.as_object().unwrap().keys() {
        assert!(
            schema["properties"].get(key).is_some(),
            "{key} not in schema"
        );
    }
    for key in required(&schema["$defs"]["section"]) {
        assert!(
            doc["sections"][0].get(&key).is_some(),
            "section misses {key}"
        );
    }
    for key in required(&schema["properties"]["content"]) {
        assert!(doc["content"].get(&key).is_some(), "content misses {key}");
    }
}

#[test]
fn standard_input() {
    let mut child = tcx()
        .args(["extract", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(std::fs::read(fixture()).unwrap().as_slice())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: Document = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc.source.url.as_deref(), Some("stdin:"));
}

#[test]
fn bad_inputs_fail_with_clear_messages() {
    let o = run(tcx().args(["extract", "tests/fixtures/does-not-exist.html"]));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));

    let empty = temp_file("empty.html", b"");
    let o = run(tcx().arg("extract").arg(&empty));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("empty"), "{}", stderr(&o));

    let pdf = temp_file("terms.pdf", b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\n");
    let o = run(tcx().arg("extract").arg(&pdf));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not HTML"), "{}", stderr(&o));

    let o = run(tcx()
        .args([
            "extract",
            &format!("http://127.0.0.1:{}/agb", closed_port()),
        ])
        .env("TCX__FETCH__ALLOW_PRIVATE_NETWORKS", "true"));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("127.0.0.1"), "{}", stderr(&o));
}

#[test]
fn private_addresses_are_refused_by_default() {
    let server = TestServer::start([("/agb", Route::html(std::fs::read(fixture()).unwrap()))]);
    let o = run(tcx().args(["extract", &server.url("/agb")]));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("refusing to connect"), "{}", stderr(&o));
    assert_eq!(server.hits("/agb"), 0);
}

#[test]
fn extract_a_url_from_a_local_server() {
    let server = TestServer::start([
        ("/agb", Route::html(std::fs::read(fixture()).unwrap())),
        ("/old", Route::redirect(301, "/agb")),
    ]);
    let o = run(tcx()
        .args(["extract", &server.url("/old")])
        .env("TCX__FETCH__ALLOW_PRIVATE_NETWORKS", "true"));
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: Document = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        doc.source.final_url.as_deref(),
        Some(server.url("/agb").as_str())
    );
    assert_eq!(doc.content.unwrap().path, "/html/body/div[2]");
}

#[test]
fn invalid_configuration_is_rejected() {
    let o = run(tcx()
        .args(["extract", fixture()])
        .env("TCX__EXTRACTION__THRESHOLD", "0.4"));
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("extraction.threshold"),
        "{}",
        stderr(&o)
    );
    let cfg = temp_file("tcx.toml", b"[extraction]\nthreshold = 0.95\n");
    let o = run(tcx().arg("--config").arg(&cfg).args(["extract", fixture()]));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(tcx().args(["--config", "missing.toml", "extract", fixture()]));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not found"), "{}", stderr(&o));
}
