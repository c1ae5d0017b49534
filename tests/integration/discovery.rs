//! Discovery: from a shop's address to its legal pages, against a small shop site on the
//! loopback [`TestServer`] (host names pinned to 127.0.0.1 with `fetch.resolve`), through
//! `tcx batch`, `tcx worker` with RabbitMQ, and on the static shop mirrors of the corpus.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_lite::StreamExt;
use lapin::BasicProperties;
use lapin::options::{BasicAckOptions, BasicConsumeOptions, BasicGetOptions, BasicPublishOptions};
use lapin::types::FieldTable;
use serde_json::Value;

use tcx::config::Settings;
use tcx::discover::LinkAction;
use tcx::job::{Job, WorkItem};
use tcx::telemetry::Metrics;
use tcx::worker::{BatchOptions, Pipeline, run_batch};
use tcx_core::DocumentType;

use crate::batch::{fixture_html, loopback_settings};
use crate::support::{Route, TestServer};

const PRIVACY: &str = "<html><head><title>Datenschutzerklärung | Musterladen</title></head><body>\
<nav><a href='/'>Startseite</a></nav><main><h1>Datenschutzerklärung</h1>\
<h2>1. Verantwortlicher</h2><p>Verantwortlich für die Verarbeitung personenbezogener Daten \
auf dieser Website ist die Musterladen GmbH. Wir verarbeiten Ihre personenbezogenen Daten \
gemäß Art. 6 Abs. 1 DSGVO nur, soweit dies zur Erfüllung des Vertrags erforderlich ist.</p>\
<h2>2. Ihre Rechte</h2><p>Sie haben das Recht auf Auskunft, Berichtigung, Löschung und \
Einschränkung der Verarbeitung Ihrer Daten sowie das Recht auf Datenübertragbarkeit. Sie \
können sich jederzeit bei einer Aufsichtsbehörde beschweren.</p></main>\
<footer><a href='http://shop.test:PORT/agb'>AGB</a></footer></body></html>";

const WITHDRAWAL: &str = "<html><head><title>Widerrufsbelehrung</title></head><body><main>\
<h1>Widerrufsbelehrung</h1><h2>Widerrufsrecht</h2><p>Sie haben das Recht, binnen vierzehn \
Tagen ohne Angabe von Gründen diesen Vertrag zu widerrufen. Die Widerrufsfrist beträgt \
vierzehn Tage ab dem Tag, an dem Sie die Waren in Besitz genommen haben.</p>\
<h2>Folgen des Widerrufs</h2><p>Wenn Sie diesen Vertrag widerrufen, haben wir Ihnen alle \
Zahlungen, die wir von Ihnen erhalten haben, unverzüglich zurückzuzahlen.</p></main>\
<footer><a href='/'>Startseite</a> <a href='/agb'>AGB</a> \
<a href='/widerrufsbelehrung'>Widerrufsbelehrung</a></footer></body></html>";

/// The start page of the shop: German, with its legal links in the footer.
fn home_page(port: u16) -> String {
    format!(
        "<html><head><title>Musterladen – Mode online</title></head><body>\
         <header><a href='/'>Startseite</a> <a href='/neu'>Neuheiten</a> \
         <a href='/kleider'>Kleider</a> <a href='#' class='cookie-settings'>Cookie-Einstellungen</a></header>\
         <main><h1>Willkommen im Musterladen</h1><p>Neue Sommerkleider sind da. Jetzt entdecken \
         und bequem nach Hause liefern lassen.</p><a href='/kleider/sommerkleid'>Sommerkleid Blau</a></main>\
         <footer><ul>\
         <li><a href='/agb'>AGB</a></li>\
         <li><a href='http://legal.shop.test:{port}/datenschutz'>Datenschutz</a></li>\
         <li><a href='/impressum'>Impressum</a></li>\
         <li><a href='/widerruf'>Widerrufsbelehrung</a></li>\
         <li><a href='/downloads/agb.pdf'>AGB als PDF</a></li>\
         <li><a href='/'>Startseite</a></li>\
         <li><a href='https://facebook.example/musterladen'>Facebook</a></li>\
         </ul></footer></body></html>"
    )
}

/// The shop site: start page, AGB (the fixture, linking back to the start page), privacy on a
/// subdomain (same server), an imprint robots.txt forbids, a redirect, a PDF, a page that is
/// not HTML, a redirect off-site, and a page with hundreds of footer links.
fn shop_site() -> TestServer {
    // The port is known only after binding: the pages that name it are added after the start.
    let server = TestServer::start([]);
    let port = server.port();
    let many: String = (0..300)
        .map(|i| format!("<a href='/agb-{i}'>AGB</a> "))
        .collect();
    server.set_routes(vec![
        ("/", Route::html(home_page(port))),
        (
            "/robots.txt",
            Route::new(200, b"User-agent: *\nDisallow: /impressum\n".to_vec())
                .content_type("text/plain"),
        ),
        ("/agb", Route::html(fixture_html())),
        (
            "/datenschutz",
            Route::html(PRIVACY.replace("PORT", &port.to_string())),
        ),
        ("/impressum", Route::html("<p>Impressum</p>")),
        ("/widerruf", Route::redirect(301, "/widerrufsbelehrung")),
        ("/widerrufsbelehrung", Route::html(WITHDRAWAL)),
        (
            "/downloads/agb.pdf",
            Route::new(200, b"%PDF-1.7\n".to_vec()).content_type("application/pdf"),
        ),
        (
            "/katalog.pdf",
            Route::new(200, b"%PDF-1.7\n".to_vec()).content_type("application/pdf"),
        ),
        (
            "/umgezogen",
            Route::redirect(301, &format!("http://anderer-shop.test:{port}/")),
        ),
        (
            "/leer",
            Route::html("<html><body><main><p>Nur ein Text ohne Links.</p></main></body></html>"),
        ),
        (
            "/viele",
            Route::html(format!(
                "<html><body><main><p>Viele Links</p></main><footer>{many}</footer></body></html>"
            )),
        ),
    ]);
    server
}

fn site_settings(server: &TestServer, extra: &[(&str, &str)]) -> Settings {
    let _ = server;
    let mut all = vec![
        (
            "TCX__FETCH__RESOLVE",
            "shop.test=127.0.0.1,legal.shop.test=127.0.0.1,anderer-shop.test=127.0.0.1",
        ),
        ("TCX__DISCOVERY__ROBOTS_TIMEOUT_SECS", "1"),
    ];
    all.extend_from_slice(extra);
    loopback_settings(&all)
}

async fn run_items(settings: &Settings, items: Vec<WorkItem>) -> Vec<Value> {
    let pipeline = Arc::new(Pipeline::new(settings, Arc::new(Metrics::new().unwrap())).unwrap());
    let mut options = BatchOptions::from_settings(&settings.worker);
    options.progress = false;
    let mut out = Vec::new();
    run_batch(pipeline, items, &options, &mut out)
        .await
        .expect("batch");
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

fn site_result<'a>(results: &'a [Value], id: &str) -> &'a Value {
    results
        .iter()
        .find(|r| r["result_type"] == "site" && r["job_id"] == id)
        .unwrap_or_else(|| panic!("no site result {id} in {results:#?}"))
}

/// The legal links of the site result as (path, type, action).
fn pages_of(site: &Value) -> Vec<(String, String, String)> {
    site["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .map(|p| {
            let url = url::Url::parse(p["url"].as_str().unwrap()).unwrap();
            (
                format!("{}{}", url.host_str().unwrap(), url.path()),
                p["document_type"].as_str().unwrap().to_owned(),
                p["action"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn expected_pages() -> Vec<(String, String, String)> {
    [
        ("shop.test/agb", "terms", "enqueued"),
        ("legal.shop.test/datenschutz", "privacy", "enqueued"),
        ("shop.test/impressum", "imprint", "robots_disallowed"),
        ("shop.test/widerruf", "withdrawal", "enqueued"),
        ("shop.test/downloads/agb.pdf", "terms", "pdf"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect()
}

/// Checks the page results of the shop's site job `id`: one per enqueued link, each ok, with
/// the site job's id, the shop and the link it was found by.
fn check_page_results(results: &[Value], id: &str) {
    let pages: Vec<&Value> = results.iter().filter(|r| r["site_job_id"] == id).collect();
    assert_eq!(pages.len(), 3, "{pages:#?}");
    let mut by_type = BTreeMap::new();
    for page in &pages {
        assert_eq!(page["status"], "ok", "{page:#?}");
        assert!(
            page["shop"]
                .as_str()
                .unwrap()
                .starts_with("http://shop.test:")
        );
        let found = &page["found_by"];
        assert!(found["url"].as_str().unwrap().contains("shop.test"));
        by_type.insert(
            found["document_type"].as_str().unwrap().to_owned(),
            page["document_type"]["kind"].clone(),
        );
    }
    let types: Vec<&str> = by_type.keys().map(String::as_str).collect();
    assert_eq!(types, vec!["privacy", "terms", "withdrawal"]);
    // The page's own type agrees with the link it was found by.
    for (link_type, page_type) in &by_type {
        assert_eq!(page_type.as_str(), Some(link_type.as_str()), "{by_type:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_site_job_finds_the_shops_legal_pages_through_batch() {
    let server = shop_site();
    let settings = site_settings(&server, &[]);
    let shop = format!("http://shop.test:{}/", server.port());
    let mut site = Job::site("site-1", &shop);
    site.shop = Some(shop.clone());
    let results = run_items(&settings, vec![WorkItem::Job(site)]).await;
    let site = site_result(&results, "site-1");
    assert_eq!(site["status"], "ok", "{site:#?}");
    assert_eq!(pages_of(site), expected_pages());
    assert_eq!(site["pages_enqueued"], 3);
    check_page_results(&results, "site-1");
    // Each page fetched once; robots.txt once per host; the forbidden page and the PDF never.
    for (path, hits) in [
        ("/", 1),
        ("/agb", 1),
        ("/datenschutz", 1),
        ("/widerruf", 1),
        ("/widerrufsbelehrung", 1),
        ("/impressum", 0),
        ("/downloads/agb.pdf", 0),
        ("/robots.txt", 2),
    ] {
        assert_eq!(server.hits(path), hits, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_linking_to_itself_is_analysed_without_a_second_fetch() {
    let server = shop_site();
    let settings = site_settings(&server, &[]);
    // The withdrawal page is the start page; its footer links to itself, the AGB and the
    // start page.
    let results = run_items(
        &settings,
        vec![WorkItem::Job(Job::site(
            "from-agb",
            format!("http://shop.test:{}/widerrufsbelehrung", server.port()),
        ))],
    )
    .await;
    let site = site_result(&results, "from-agb");
    assert_eq!(site["status"], "ok", "{site:#?}");
    let self_link = site["pages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["is_start_page"] == true)
        .expect("the page's link to itself");
    assert_eq!(self_link["document_type"], "withdrawal");
    assert_eq!(
        server.hits("/widerrufsbelehrung"),
        1,
        "the page is fetched once"
    );
    assert_eq!(server.hits("/agb"), 1);
    let agb = results
        .iter()
        .find(|r| r["found_by"]["url"] == self_link["url"])
        .expect("the withdrawal page's result");
    assert_eq!(agb["status"], "ok");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_sites_give_clear_site_results() {
    let server = shop_site();
    let slow_robots = TestServer::start([
        ("/", Route::html(home_page(1))),
        (
            "/robots.txt",
            Route::new(200, b"User-agent: *\nAllow: /\n".to_vec()).delay(Duration::from_secs(3)),
        ),
    ]);
    let settings = site_settings(
        &server,
        &[
            ("TCX__WORKER__MAX_RETRIES", "0"),
            ("TCX__DISCOVERY__MAX_PAGES", "10"),
        ],
    );
    let port = server.port();
    let items = vec![
        WorkItem::Job(Job::site(
            "pdf",
            format!("http://shop.test:{port}/katalog.pdf"),
        )),
        WorkItem::Job(Job::site(
            "moved",
            format!("http://shop.test:{port}/umgezogen"),
        )),
        WorkItem::Job(Job::site(
            "nothing",
            format!("http://shop.test:{port}/leer"),
        )),
        WorkItem::Job(Job::site("slow", slow_robots.url("/"))),
        WorkItem::Job(Job::site("many", format!("http://shop.test:{port}/viele"))),
    ];
    let started = Instant::now();
    let results = run_items(&settings, items).await;
    assert!(started.elapsed() < Duration::from_secs(20));
    let kind = |id: &str| site_result(&results, id)["error"]["kind"].clone();
    assert_eq!(kind("pdf"), "not_html");
    assert_eq!(kind("moved"), "off_site_redirect");
    assert_eq!(kind("nothing"), "no_legal_pages");
    // robots.txt answered too late: nothing on that host is fetched (RFC 9309 "unreachable").
    assert_eq!(kind("slow"), "robots_unreachable");
    assert_eq!(slow_robots.hits("/"), 0);
    // Hundreds of footer links: bounded by discovery.max_pages.
    let many = site_result(&results, "many");
    assert_eq!(many["status"], "ok");
    assert_eq!(many["pages_enqueued"], 10);
    let over = many["pages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["action"] == "over_limit")
        .count();
    assert_eq!(over, 290);
    let from_many = results
        .iter()
        .filter(|r| r["site_job_id"] == "many")
        .count();
    assert_eq!(from_many, 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_job_that_is_not_a_legal_page_says_so_and_may_follow_its_links() {
    let server = shop_site();
    let settings = site_settings(&server, &[]);
    let home = format!("http://shop.test:{}/", server.port());
    let plain = Job::new("home", &home);
    let mut follow = Job::new("home-follow", &home);
    follow.follow_legal_links = true;
    let results = run_items(&settings, vec![WorkItem::Job(plain), WorkItem::Job(follow)]).await;
    let by_id: HashMap<&str, &Value> = results
        .iter()
        .map(|r| (r["job_id"].as_str().unwrap(), r))
        .collect();
    assert_eq!(by_id["home"]["error"]["kind"], "not_legal_page");
    assert_eq!(by_id["home-follow"]["error"]["kind"], "not_legal_page");
    let followed: Vec<&&Value> = by_id
        .values()
        .filter(|r| r["site_job_id"] == "home-follow")
        .collect();
    assert_eq!(followed.len(), 3, "{results:#?}");
    assert!(followed.iter().all(|r| r["status"] == "ok"));
}

// -----------------------------------------------------------------------------------------
// Through the worker and RabbitMQ.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_site_job_through_the_worker_and_rabbitmq() {
    if !crate::worker::broker_available("site_job_worker") {
        return;
    }
    let server = shop_site();
    let (base, _) = crate::worker::unique_settings("site", &[]);
    let mut settings = base;
    settings.fetch.resolve = vec![
        "shop.test=127.0.0.1".into(),
        "legal.shop.test=127.0.0.1".into(),
    ];
    settings.worker.max_retries = 0;
    let shop = format!("http://shop.test:{}/", server.port());
    let worker = crate::worker::spawn_worker(&settings, "site-worker");
    let (conn, ch) = crate::worker::connect().await;
    tcx::worker::topology::declare(&ch, &settings.amqp, &settings.worker)
        .await
        .expect("topology");
    let publish = |body: Vec<u8>| {
        let ch = ch.clone();
        let settings = settings.clone();
        async move {
            ch.basic_publish(
                settings.amqp.jobs_exchange.as_str().into(),
                settings.amqp.jobs_routing_key.as_str().into(),
                BasicPublishOptions::default(),
                &body,
                BasicProperties::default(),
            )
            .await
            .expect("publish")
            .await
            .expect("confirm");
        }
    };
    let mut site = Job::site("w-site", &shop);
    site.shop = Some(shop.clone());
    publish(serde_json::to_vec(&site).unwrap()).await;
    // A site job without a usable URL goes to the dead-letter queue with its reason.
    publish(br#"{"job_id":"w-bad","shop_url":"not a url"}"#.to_vec()).await;

    let mut consumer = ch
        .basic_consume(
            settings.amqp.results_queue.as_str().into(),
            "site-test".into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await
        .expect("consume");
    let mut results: Vec<Value> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while results.len() < 4 && Instant::now() < deadline {
        if let Ok(Some(Ok(d))) = tokio::time::timeout(Duration::from_secs(1), consumer.next()).await
        {
            results.push(serde_json::from_slice(&d.data).expect("JSON"));
            d.ack(BasicAckOptions::default()).await.expect("ack");
        }
    }
    let site = site_result(&results, "w-site");
    assert_eq!(pages_of(site), expected_pages());
    check_page_results(&results, "w-site");
    let dead = ch
        .basic_get(
            settings.amqp.dead_letter_queue.as_str().into(),
            BasicGetOptions { no_ack: true },
        )
        .await
        .expect("get")
        .expect("a dead-lettered job");
    let reason = tcx::worker::publisher::str_header(&dead.properties, tcx::job::REASON_HEADER)
        .expect("reason");
    assert!(reason.contains("shop_url"), "{reason}");
    crate::worker::stop_worker(worker).await;
    let _ = conn.close(200, "bye".into()).await;
    crate::worker::cleanup(&settings).await;
}

// -----------------------------------------------------------------------------------------
// The static shop mirrors of the corpus.

/// A mirror page: its shop, its language, the host its links use, and the path it is
/// served at.
struct MirrorPage {
    shop: String,
    lang: String,
    host: String,
    path: String,
    file: std::path::PathBuf,
}

fn mirror_pages(corpus: &std::path::Path) -> Vec<MirrorPage> {
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(corpus.join("raw/static_sites_manifest.json")).expect("manifest"),
    )
    .expect("manifest JSON");
    manifest
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            let file = entry["file"].as_str().unwrap();
            let shop = file.split('/').next().unwrap().to_owned();
            // The mirror's host: the shop's domain where the folder names one, else a
            // made-up one (their links are relative).
            let name = shop.trim_start_matches("static-");
            let host = if name.contains('.') {
                name.to_owned()
            } else {
                format!("{name}.test")
            };
            let source = entry["source_path"].as_str().unwrap();
            let path = format!("/{}", source.trim_end_matches("index.html"));
            MirrorPage {
                shop,
                // The mirror's folder names the language (de/, en/).
                lang: file.split('/').nth(1).unwrap_or("").to_owned(),
                host,
                path,
                file: corpus.join("raw").join(file),
            }
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn from_any_page_of_a_mirrored_shop_its_other_legal_pages_are_found() {
    let Some(corpus) = crate::corpus::corpus_dir() else {
        return;
    };
    let pages = mirror_pages(&corpus);
    // Each shop on its own server (their paths collide: every shop has an /agb/).
    let mut shops: BTreeMap<String, Vec<&MirrorPage>> = BTreeMap::new();
    for page in &pages {
        shops.entry(page.shop.clone()).or_default().push(page);
    }
    let mut report = String::new();
    let (mut found_all, mut expected_all, mut links_all, mut right_all) = (0, 0, 0, 0);
    let (mut linked_all, mut linked_found_all) = (0, 0);
    for (shop, shop_pages) in &shops {
        if shop_pages.len() < 2 {
            continue;
        }
        let server = TestServer::start(shop_pages.iter().map(|p| {
            (
                p.path.as_str(),
                Route::html(std::fs::read(&p.file).expect("mirror page")),
            )
        }));
        let host = &shop_pages[0].host;
        let settings = loopback_settings(&[
            (
                "TCX__FETCH__RESOLVE",
                &format!("{host}=127.0.0.1,www.{host}=127.0.0.1"),
            ),
            ("TCX__DISCOVERY__RESPECT_ROBOTS", "false"),
            ("TCX__FETCH__MAX_BODY_BYTES", "10485760"),
            ("TCX__DISCOVERY__MAX_PAGES", "20"),
        ]);
        let pipeline = Pipeline::new(&settings, Arc::new(Metrics::new().unwrap())).unwrap();
        let paths: Vec<String> = shop_pages.iter().map(|p| normalise(&p.path)).collect();
        // A shop links the legal pages of the language a page is in (and at most a language
        // switch to the others): expect those.
        let same_language = |lang: &str| -> Vec<String> {
            shop_pages
                .iter()
                .filter(|p| p.lang == lang)
                .map(|p| normalise(&p.path))
                .collect()
        };
        for page in shop_pages {
            let start = format!("http://{host}:{}{}", server.port(), page.path);
            let links = match pipeline.discover(&start).await {
                Ok((found, _)) => found.links,
                Err(e) => {
                    report.push_str(&format!("{shop} {}: {e}\n", page.path));
                    Vec::new()
                }
            };
            let found: Vec<String> = links
                .iter()
                .filter(|l| !matches!(l.action, LinkAction::Pdf | LinkAction::File))
                .map(|l| normalise(url::Url::parse(&l.url).unwrap().path()))
                .collect();
            let expected = same_language(&page.lang);
            let others: Vec<&String> = expected
                .iter()
                .filter(|p| **p != normalise(&page.path))
                .collect();
            // The pages this page links to at all (whatever the link says).
            let html = std::fs::read_to_string(&page.file).unwrap_or_default();
            let base = url::Url::parse(&format!("http://{host}{}", page.path)).unwrap();
            let linked: Vec<String> = tcx::discover::page_links(&html)
                .links
                .iter()
                .filter_map(|l| base.join(&l.href).ok())
                .map(|u| normalise(u.path()))
                .collect();
            let linked_others = others.iter().filter(|p| linked.contains(p)).count();
            let linked_hit = others
                .iter()
                .filter(|p| linked.contains(p) && found.contains(p))
                .count();
            linked_all += linked_others;
            linked_found_all += linked_hit;
            let hit = others.iter().filter(|p| found.contains(p)).count();
            let right = found.iter().filter(|f| paths.contains(f)).count();
            found_all += hit;
            expected_all += others.len();
            links_all += found.len();
            right_all += right;
            report.push_str(&format!(
                "{shop} {}: found {hit}/{} other mirror pages (missed {:?}); {right}/{} links are mirror pages; extra: {:?}\n",
                page.path,
                others.len(),
                others.iter().filter(|p| !found.contains(p)).collect::<Vec<_>>(),
                found.len(),
                found.iter().filter(|f| !paths.contains(f)).collect::<Vec<_>>()
            ));
        }
    }
    eprintln!("{report}");
    let recall = found_all as f64 / expected_all.max(1) as f64;
    let precision = right_all as f64 / links_all.max(1) as f64;
    let linked_recall = linked_found_all as f64 / linked_all.max(1) as f64;
    eprintln!(
        "mirrors: recall {recall:.3} ({found_all}/{expected_all}); of the pages linked from the \
         start page {linked_recall:.3} ({linked_found_all}/{linked_all}); share of links that are \
         mirror pages {precision:.3} ({right_all}/{links_all})"
    );
    // Every mirror page the start page links to is found; the rest are pages no other page
    // links (a partner's AGB) or links the shop itself got wrong ("/zahlung-versan").
    assert_eq!(linked_found_all, linked_all, "{report}");
    assert!(recall >= 0.85, "recall {recall:.3}\n{report}");
}

/// A path without a trailing slash or `.html`, lower case: the mirrors serve `/agb/` for a
/// link `/agb` and `privacy-policy.html` for `/policies/privacy-policy`.
fn normalise(path: &str) -> String {
    path.trim_end_matches('/')
        .trim_end_matches(".html")
        .to_ascii_lowercase()
}

#[test]
fn every_document_type_has_a_name_round_trip() {
    for kind in DocumentType::ALL {
        assert_eq!(DocumentType::from_name(kind.name()), Some(kind));
    }
}

#[test]
fn the_discover_and_batch_commands_take_shops() {
    let server = shop_site();
    let env = [
        ("TCX__FETCH__ALLOW_PRIVATE_NETWORKS", "true"),
        (
            "TCX__FETCH__RESOLVE",
            "shop.test=127.0.0.1,legal.shop.test=127.0.0.1",
        ),
    ];
    let shop = format!("http://shop.test:{}/", server.port());
    let run = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_tcx"))
            .args(args)
            .envs(env)
            .output()
            .expect("run tcx");
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let (code, out, err) = run(&["discover", &shop]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[0].starts_with("terms") && lines[0].contains("enqueued"),
        "{out}"
    );
    assert!(
        out.contains("robots_disallowed") && out.contains("pdf"),
        "{out}"
    );
    let (code, out, _) = run(&["discover", "--json", &shop]);
    assert_eq!(code, Some(0));
    let site: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(site["pages_enqueued"], 3);
    let (code, _, err) = run(&["discover", "ftp://shop.test/"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("shop_url"), "{err}");
    // A shop list for batch: one site job, then its three pages.
    let dir = std::env::temp_dir().join(format!("tcx-sites-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("shops.txt");
    std::fs::write(&list, format!("{shop}\n")).unwrap();
    let (code, out, err) = run(&[
        "batch",
        "--quiet",
        "--sites",
        "--input",
        list.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let results: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(results.len(), 4, "{out}");
    assert_eq!(
        results
            .iter()
            .filter(|r| r["result_type"] == "site")
            .count(),
        1
    );
    let _ = std::fs::remove_dir_all(&dir);
}
