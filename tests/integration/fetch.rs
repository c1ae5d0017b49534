//! The real [`Fetcher`] against the loopback [`TestServer`]. No traffic leaves 127.0.0.1:
//! tests that need the address guard off use `allow_private_networks = true`, and tests of the
//! guard check that the refused target was never contacted.

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use tcx::config::FetchSettings;
use tcx::fetch::{AddressGuard, FetchError, Fetcher};

use crate::support::{Route, TestServer, closed_port, gzip};

const UA: &str = "tcx-integration-test/1";

/// "Die Gebühr beträgt 5 € für Rücksendungen. Größe und Maße" in windows-1252.
const W1252: &[u8] = b"<p>Die Geb\xfchr betr\xe4gt 5 \x80 f\xfcr R\xfccksendungen. \
                       Gr\xf6\xdfe und Ma\xdfe.</p>";
const W1252_TEXT: &str = "<p>Die Gebühr beträgt 5 € für Rücksendungen. Größe und Maße.</p>";

fn settings(allow_private_networks: bool) -> FetchSettings {
    FetchSettings {
        connect_timeout_secs: 2,
        timeout_secs: 10,
        max_redirects: 5,
        max_body_bytes: 64 * 1024,
        user_agent: UA.into(),
        allow_private_networks,
        resolve: Vec::new(),
    }
}

fn fetcher() -> Fetcher {
    Fetcher::new(&settings(true)).expect("fetcher")
}

fn page(body: &str) -> String {
    format!("<!DOCTYPE html><html><head><title>AGB</title></head><body>{body}</body></html>")
}

fn page_bytes(head: &str, body: &[u8]) -> Vec<u8> {
    let mut v = format!("<!DOCTYPE html><html><head>{head}</head><body>").into_bytes();
    v.extend_from_slice(body);
    v.extend_from_slice(b"</body></html>");
    v
}

async fn fetch_err(fetcher: &Fetcher, url: &str) -> FetchError {
    match fetcher.fetch(url).await {
        Ok(page) => panic!(
            "expected an error for {url}, got a page of {} bytes",
            page.bytes
        ),
        Err(e) => e,
    }
}

#[tokio::test]
async fn fetches_an_ok_page() {
    let html = page("<h2>§ 1 Geltungsbereich</h2><p>Für alle Bestellungen gilt …</p>");
    let server = TestServer::start([("/agb", Route::html(html.clone()))]);
    let url = server.url("/agb");
    let page = fetcher().fetch(&url).await.expect("page");
    assert_eq!(page.url, url);
    assert_eq!(page.final_url, url);
    assert_eq!(page.status, 200);
    assert_eq!(
        page.content_type.as_deref(),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(page.html, html);
    assert_eq!(page.encoding, "UTF-8");
    assert_eq!(page.bytes, html.len());

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].method, "GET");
    assert_eq!(requests[0].header("user-agent"), Some(UA));
    assert!(
        requests[0]
            .header("accept")
            .unwrap_or_default()
            .starts_with("text/html")
    );
    let encodings = requests[0].header("accept-encoding").unwrap_or_default();
    assert!(
        encodings.contains("gzip") && encodings.contains("br"),
        "{encodings}"
    );
}

#[tokio::test]
async fn windows_1252_by_header_charset() {
    let server = TestServer::start([(
        "/agb",
        Route::new(200, page_bytes("", W1252)).content_type("text/html; charset=windows-1252"),
    )]);
    let page = fetcher().fetch(&server.url("/agb")).await.expect("page");
    assert_eq!(page.encoding, "windows-1252");
    assert!(page.html.contains(W1252_TEXT), "{}", page.html);
}

#[tokio::test]
async fn iso_8859_1_by_meta_charset() {
    let body = page_bytes(
        r#"<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">"#,
        b"<p>Gr\xfc\xdfe aus K\xf6ln, \xa7 3 Abs. 2</p>",
    );
    let server = TestServer::start([("/agb", Route::new(200, body).content_type("text/html"))]);
    let page = fetcher().fetch(&server.url("/agb")).await.expect("page");
    assert_eq!(page.encoding, "windows-1252");
    assert!(
        page.html.contains("Grüße aus Köln, § 3 Abs. 2"),
        "{}",
        page.html
    );
}

#[tokio::test]
async fn gzip_encoded_body_is_decompressed() {
    let html =
        page(&"<p>Widerrufsbelehrung: Sie haben das Recht, binnen vierzehn Tagen …</p>".repeat(50));
    let compressed = gzip(html.as_bytes());
    assert!(compressed.len() < html.len() / 4);
    let server = TestServer::start([(
        "/agb.gz",
        Route::html(compressed).header("Content-Encoding", "gzip"),
    )]);
    let page = fetcher().fetch(&server.url("/agb.gz")).await.expect("page");
    assert_eq!(page.html, html);
    assert_eq!(page.bytes, html.len(), "bytes counts the decompressed body");
}

#[tokio::test]
async fn redirect_chain_is_followed() {
    let server = TestServer::start([
        ("/start", Route::redirect(301, "/middle")),
        ("/middle", Route::redirect(302, "/final?lang=de")),
        (
            "/final",
            Route::html(page("<p>Allgemeine Geschäftsbedingungen</p>")),
        ),
    ]);
    let url = server.url("/start");
    let page = fetcher().fetch(&url).await.expect("page");
    assert_eq!(page.url, url);
    assert_eq!(page.final_url, server.url("/final?lang=de"));
    assert!(page.html.contains("Geschäftsbedingungen"));
    assert_eq!(server.hits("/start"), 1);
    assert_eq!(server.hits("/middle"), 1);
    assert_eq!(server.hits("/final?lang=de"), 1);
}

#[tokio::test]
async fn absolute_redirect_is_followed() {
    let server = TestServer::start([("/new", Route::html(page("<p>neu</p>")))]);
    let target = server.url("/new");
    let redirecting = TestServer::start([("/old", Route::redirect(308, &target))]);
    let page = fetcher()
        .fetch(&redirecting.url("/old"))
        .await
        .expect("page");
    assert_eq!(page.final_url, target);
}

#[tokio::test]
async fn too_many_redirects() {
    let server = TestServer::start([
        ("/r1", Route::redirect(302, "/r2")),
        ("/r2", Route::redirect(302, "/r3")),
        ("/r3", Route::redirect(302, "/r4")),
        ("/r4", Route::html(page("<p>end</p>"))),
        ("/loop", Route::redirect(302, "/loop")),
    ]);
    let two = Fetcher::new(&FetchSettings {
        max_redirects: 2,
        ..settings(true)
    })
    .expect("fetcher");
    let err = fetch_err(&two, &server.url("/r1")).await;
    assert_eq!(err, FetchError::TooManyRedirects);
    assert_eq!(err.kind(), "too_many_redirects");
    assert!(!err.retryable());
    assert_eq!(server.hits("/r4"), 0);

    let three = Fetcher::new(&FetchSettings {
        max_redirects: 3,
        ..settings(true)
    })
    .expect("fetcher");
    assert!(
        three.fetch(&server.url("/r1")).await.is_ok(),
        "exactly at the limit"
    );

    let err = fetch_err(&fetcher(), &server.url("/loop")).await;
    assert_eq!(err.kind(), "too_many_redirects");
    assert_eq!(server.hits("/loop"), 6, "initial request + 5 redirects");
}

#[tokio::test]
async fn http_status_errors() {
    let server = TestServer::start([
        ("/gone", Route::status(404)),
        ("/busy", Route::status(503).header("Retry-After", "120")),
        ("/slow-down", Route::status(429)),
        (
            "/broken",
            Route::html(page("<p>Fehler</p>")).header("X-Ignored", "1"),
        ),
    ]);
    let f = fetcher();
    let err = fetch_err(&f, &server.url("/gone")).await;
    assert_eq!(err, FetchError::HttpStatus(404));
    assert_eq!(err.kind(), "http_status");
    assert!(!err.retryable());
    assert_eq!(err.to_string(), "HTTP status 404");

    let err = fetch_err(&f, &server.url("/busy")).await;
    assert_eq!(err, FetchError::HttpStatus(503));
    assert!(err.retryable());

    let err = fetch_err(&f, &server.url("/slow-down")).await;
    assert!(err.retryable(), "429 is retryable");

    // An unknown path gets the server's 404.
    assert_eq!(
        fetch_err(&f, &server.url("/nope")).await,
        FetchError::HttpStatus(404)
    );
    assert!(f.fetch(&server.url("/broken")).await.is_ok());
}

#[tokio::test]
async fn non_html_is_rejected() {
    let pdf = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n".to_vec();
    let server = TestServer::start([
        (
            "/agb.pdf",
            Route::new(200, pdf.clone()).content_type("application/pdf"),
        ),
        (
            "/download",
            Route::new(200, pdf.clone()).content_type("application/octet-stream"),
        ),
        (
            "/mislabelled",
            Route::new(200, pdf).content_type("text/html"),
        ),
        (
            "/logo",
            Route::new(200, b"\x89PNG\r\n\x1a\n\0\0".to_vec()).content_type("image/png"),
        ),
        (
            "/plain-text",
            Route::new(200, "Just words, no markup.").content_type("text/plain"),
        ),
        ("/untyped-text", Route::new(200, "Just words, no markup.")),
        (
            "/plain-html",
            Route::new(200, page("<p>AGB</p>")).content_type("text/plain"),
        ),
        ("/untyped-html", Route::new(200, page("<p>AGB</p>"))),
        (
            "/xhtml",
            Route::new(200, page("<p>AGB</p>")).content_type("application/xhtml+xml"),
        ),
    ]);
    let f = fetcher();
    let err = fetch_err(&f, &server.url("/agb.pdf")).await;
    assert_eq!(err, FetchError::NotHtml("application/pdf".into()));
    assert_eq!(err.kind(), "not_html");
    assert!(!err.retryable());
    for path in ["/download", "/mislabelled"] {
        let err = fetch_err(&f, &server.url(path)).await;
        assert_eq!(
            err,
            FetchError::NotHtml("application/pdf (sniffed)".into()),
            "{path}"
        );
    }
    assert_eq!(fetch_err(&f, &server.url("/logo")).await.kind(), "not_html");
    assert_eq!(
        fetch_err(&f, &server.url("/plain-text")).await,
        FetchError::NotHtml("text/plain".into())
    );
    assert_eq!(
        fetch_err(&f, &server.url("/untyped-text")).await.kind(),
        "not_html"
    );
    for path in ["/plain-html", "/untyped-html", "/xhtml"] {
        let page = f.fetch(&server.url(path)).await.expect(path);
        assert!(page.html.contains("<p>AGB</p>"), "{path}");
    }
}

#[tokio::test]
async fn body_over_the_limit_is_too_large() {
    let limit = 64 * 1024;
    let big = page(&"<p>Lorem ipsum dolor sit amet, consetetur sadipscing elitr.</p>".repeat(3000));
    assert!(big.len() > 2 * limit);
    let exact = "x".repeat(limit);
    let bomb = gzip(&vec![b' '; 4 * limit]);
    let server = TestServer::start([
        ("/declared", Route::html(big.clone())),
        ("/chunked", Route::html(big.clone()).chunked()),
        (
            "/bomb",
            Route::html(bomb).header("Content-Encoding", "gzip"),
        ),
        (
            "/exact",
            Route::html(format!("<p>{}", &exact[3..])).chunked(),
        ),
    ]);
    let f = fetcher();
    for path in ["/declared", "/chunked", "/bomb"] {
        let err = fetch_err(&f, &server.url(path)).await;
        assert_eq!(err, FetchError::TooLarge { limit }, "{path}");
        assert_eq!(err.kind(), "too_large");
        assert!(!err.retryable());
    }
    let page = f
        .fetch(&server.url("/exact"))
        .await
        .expect("exactly the limit is fine");
    assert_eq!(page.bytes, limit);
}

#[tokio::test]
async fn slow_server_times_out() {
    let server = TestServer::start([
        (
            "/slow",
            Route::html(page("<p>late</p>")).delay(Duration::from_secs(5)),
        ),
        (
            "/stall",
            Route::html(page(&"<p>part</p>".repeat(100))).body_delay(Duration::from_secs(5)),
        ),
    ]);
    let f = Fetcher::new(&FetchSettings {
        timeout_secs: 1,
        ..settings(true)
    })
    .expect("fetcher");
    for path in ["/slow", "/stall"] {
        let started = Instant::now();
        let err = fetch_err(&f, &server.url(path)).await;
        let elapsed = started.elapsed();
        assert_eq!(err, FetchError::Timeout, "{path}");
        assert_eq!(err.kind(), "timeout");
        assert!(err.retryable());
        assert!(elapsed >= Duration::from_millis(900), "{path}: {elapsed:?}");
        assert!(elapsed < Duration::from_secs(4), "{path}: {elapsed:?}");
    }
}

#[tokio::test]
async fn connection_refused_is_a_retryable_connect_error() {
    let url = format!("http://127.0.0.1:{}/agb", closed_port());
    let err = fetch_err(&fetcher(), &url).await;
    assert_eq!(err.kind(), "connect", "{err}");
    assert!(err.retryable());
    let msg = err.to_string();
    assert!(
        msg.starts_with("connection failed: ") && msg.contains(&url),
        "{msg}"
    );
}

#[tokio::test]
async fn loopback_ip_is_refused_without_allow_private_networks() {
    let server = TestServer::start([("/agb", Route::html(page("<p>AGB</p>")))]);
    let guarded = Fetcher::new(&settings(false)).expect("fetcher");
    let err = fetch_err(&guarded, &server.url("/agb")).await;
    assert_eq!(
        err,
        FetchError::AddressRefused {
            host: "127.0.0.1".into(),
            addr: IpAddr::V4(Ipv4Addr::LOCALHOST),
        }
    );
    assert_eq!(err.kind(), "address_refused");
    assert!(!err.retryable());
    assert!(err.to_string().contains("loopback"), "{err}");
    let err = fetch_err(&guarded, &format!("http://[::1]:{}/agb", server.port())).await;
    assert_eq!(err.kind(), "address_refused");
    assert_eq!(server.hits("/agb"), 0, "nothing was sent");
}

#[tokio::test]
async fn localhost_is_refused_by_the_resolver() {
    let server = TestServer::start([("/agb", Route::html(page("<p>AGB</p>")))]);
    let guarded = Fetcher::new(&settings(false)).expect("fetcher");
    let err = fetch_err(&guarded, &format!("http://localhost:{}/agb", server.port())).await;
    match &err {
        FetchError::AddressRefused { host, addr } => {
            assert_eq!(host, "localhost");
            assert!(addr.is_loopback(), "{addr}");
        }
        other => panic!("expected address_refused, got {other:?}: {other}"),
    }
    assert_eq!(server.hits("/agb"), 0, "nothing was sent");

    // With private networks allowed the same URL works (resolver path, not an IP literal).
    let page = fetcher()
        .fetch(&format!("http://localhost:{}/agb", server.port()))
        .await
        .expect("localhost allowed");
    assert!(page.html.contains("AGB"));
}

#[tokio::test]
async fn redirect_to_private_address_is_refused() {
    // The test server itself (127.0.0.1) is exempt from the guard; everything else that is not
    // public is refused, also when a redirect points there.
    // Redirect targets are loopback addresses only, so even a broken guard would not send
    // traffic off the machine; other ranges are covered by the unit tests of the policy.
    let server = TestServer::start([("/ok", Route::html(page("<p>AGB</p>")))]);
    let port = server.port();
    let redirects = TestServer::start([
        (
            "/to-ip",
            Route::redirect(302, &format!("http://127.0.0.2:{port}/ok")),
        ),
        (
            "/to-v6",
            Route::redirect(301, &format!("http://[::1]:{port}/ok")),
        ),
        (
            "/to-mapped",
            Route::redirect(307, &format!("http://[::ffff:127.0.0.3]:{port}/ok")),
        ),
        ("/to-file", Route::redirect(302, "file:///etc/passwd")),
        ("/to-allowed", Route::redirect(302, &server.url("/ok"))),
    ]);
    let guard = AddressGuard::new(false).exempt(IpAddr::V4(Ipv4Addr::LOCALHOST));
    let guarded = Fetcher::with_guard(&settings(false), guard).expect("fetcher");

    let page = guarded
        .fetch(&redirects.url("/to-allowed"))
        .await
        .expect("exempt address is allowed");
    assert_eq!(page.final_url, server.url("/ok"));

    for (path, host) in [
        ("/to-ip", "127.0.0.2"),
        ("/to-v6", "[::1]"),
        ("/to-mapped", "[::ffff:7f00:3]"),
    ] {
        let err = fetch_err(&guarded, &redirects.url(path)).await;
        match &err {
            FetchError::AddressRefused { host: h, .. } => assert_eq!(h, host, "{path}"),
            other => panic!("{path}: expected address_refused, got {other:?}: {other}"),
        }
        assert_eq!(redirects.hits(path), 1, "{path}");
    }
    let err = fetch_err(&guarded, &redirects.url("/to-file")).await;
    assert_eq!(err, FetchError::UnsupportedScheme("file".into()));
    assert_eq!(
        server.hits("/ok"),
        1,
        "only the allowed redirect reached the target"
    );
}
