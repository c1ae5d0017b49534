//! `tcx eval`: the scorer end to end on a small synthetic corpus, the hand-labelled gold
//! fixtures against their pages, and a run over the shared corpus when it is present.

use std::path::{Path, PathBuf};

use tcx::eval::gold::{self, GoldKind};
use tcx::eval::measures::{self, Edge};
use tcx::eval::{self as ev, Baseline, EvalArgs};

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shared_corpus() -> Option<PathBuf> {
    crate::corpus::corpus_dir()
}

/// A fresh empty directory under the system temp dir.
fn temp_dir(name: &str) -> PathBuf {
    // Unique per call: tests run in parallel threads of one process.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("tcx-eval-{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

const PAGE: &str = "<!doctype html><html><head><title>AGB</title></head><body>\
    <nav><a href='/'>Start</a> <a href='/shop'>Shop</a> <a href='/agb'>AGB</a></nav>\
    <main><h1>Allgemeine Geschäftsbedingungen</h1>\
    <h2>§ 1 Geltungsbereich</h2><p>Diese Allgemeinen Geschäftsbedingungen gelten für alle \
    Bestellungen, die Verbraucher über unseren Onlineshop abschließen, in der zum Zeitpunkt \
    der Bestellung gültigen Fassung.</p>\
    <h2>§ 2 Vertragsschluss</h2><p>Die Darstellung der Produkte im Onlineshop stellt kein \
    rechtlich bindendes Angebot dar, sondern eine unverbindliche Aufforderung zur Bestellung \
    durch den Kunden.</p>\
    <h2>§ 3 Gerichtsstand</h2><p>Es gilt das Recht der Bundesrepublik Deutschland unter \
    Ausschluss des UN-Kaufrechts, soweit zwingende Vorschriften nicht entgegenstehen.</p>\
    </main><footer><p>© 2026 Beispiel-Shop · Impressum · Datenschutz</p></footer></body></html>";

const GOLD_MD: &str = "Allgemeine Geschäftsbedingungen\n===============================\n\n\
    § 1 Geltungsbereich\n-------------------\n\nDiese Allgemeinen Geschäftsbedingungen gelten \
    für alle Bestellungen, die Verbraucher über unseren Onlineshop abschließen, in der zum \
    Zeitpunkt der Bestellung gültigen Fassung.\n\n## § 2 Vertragsschluss\n\nDie Darstellung der \
    Produkte im Onlineshop stellt **kein rechtlich bindendes Angebot** dar, sondern eine \
    unverbindliche Aufforderung zur Bestellung durch den Kunden.\n\n## § 3 Gerichtsstand\n\n\
    Es gilt das Recht der [Bundesrepublik Deutschland](https://example.com) unter Ausschluss \
    des UN-Kaufrechts, soweit zwingende Vorschriften nicht entgegenstehen.\n";

/// A corpus with one page scored three ways (Markdown, text, JSON gold; plain and gzipped).
fn synthetic_corpus() -> (PathBuf, EvalArgs) {
    let dir = temp_dir("synthetic");
    let raw = dir.join("raw/shop/de");
    std::fs::create_dir_all(&raw).expect("create raw dir");
    std::fs::write(raw.join("agb.html"), PAGE).expect("write page");
    std::fs::write(
        raw.join("agb2.html.gz"),
        crate::support::gzip(PAGE.as_bytes()),
    )
    .expect("write gz");
    std::fs::write(raw.join("agb.gt.md"), GOLD_MD).expect("write md gold");
    let (text, _) = gold::parse_markdown(GOLD_MD);
    std::fs::write(raw.join("agb.txt"), text).expect("write text gold");
    std::fs::write(
        dir.join("gold.tsv"),
        "html\tgold\tlang\tgold_kind\n\
         raw/shop/de/agb.html\traw/shop/de/agb.gt.md\tde\tmarkdown\n\
         raw/shop/de/agb2.html.gz\traw/shop/de/agb.txt\tde\ttext\n",
    )
    .expect("write manifest");
    let gold_dir = dir.join("gold");
    std::fs::create_dir_all(&gold_dir).expect("create gold dir");
    std::fs::write(
        gold_dir.join("shop-agb.gold.json"),
        r#"{
  "html": "raw/shop/de/agb.html",
  "lang": "de",
  "doc_type": "agb",
  "first_words": "Allgemeine Geschäftsbedingungen § 1 Geltungsbereich Diese Allgemeinen Geschäftsbedingungen gelten",
  "last_words": "unter Ausschluss des UN-Kaufrechts, soweit zwingende Vorschriften nicht entgegenstehen.",
  "headings": [
    { "title": "Allgemeine Geschäftsbedingungen", "children": [
      { "title": "§ 1 Geltungsbereich" },
      { "title": "§ 2 Vertragsschluss" },
      { "title": "§ 3 Gerichtsstand" }
    ] }
  ]
}
"#,
    )
    .expect("write json gold");
    let args = EvalArgs {
        corpus: dir.clone(),
        gold_dir,
        jobs: Some(2),
        ..EvalArgs::default()
    };
    (dir, args)
}

#[test]
fn eval_scores_a_synthetic_corpus_of_all_gold_kinds() {
    let (dir, args) = synthetic_corpus();
    let entries = ev::entries(&args).expect("entries");
    assert_eq!(entries.len(), 3);
    let kinds: Vec<GoldKind> = entries.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [GoldKind::Markdown, GoldKind::Text, GoldKind::Json]);
    let pages = ev::evaluate_all(&entries, &tcx::AnalysisOptions::default(), 2).expect("eval");
    assert_eq!(pages.len(), 3);
    for p in &pages {
        // The measures must be well-formed whatever the analysis does.
        if let Some(t) = p.tokens {
            assert!((0.0..=1.0).contains(&t.f1), "{}: {t:?}", p.id);
        }
        if let Some(h) = &p.hierarchy {
            assert!((0.0..=1.0).contains(&h.error_score), "{}: {h:?}", p.id);
            assert_eq!(h.section_errors.len(), h.extracted);
        }
        println!(
            "{}: start {:?} end {:?} tokens {:?} headings {:?} error {:?}",
            p.id,
            p.start,
            p.end,
            p.tokens.map(|t| t.f1),
            p.hierarchy.as_ref().map(|h| h.prf.f1),
            p.error
        );
    }
    // Markdown and JSON golds have headings; the text gold has the text only.
    assert!(pages[0].tokens.is_some() && pages[0].hierarchy.is_some());
    assert!(pages[1].tokens.is_some() && pages[1].hierarchy.is_none());
    assert!(pages[2].tokens.is_none() && pages[2].hierarchy.is_some());
    // The gzipped copy is the same page: same outcome as the plain one.
    assert_eq!(pages[0].start, pages[1].start);
    assert_eq!(pages[0].extracted_tokens, pages[1].extracted_tokens);

    let report = ev::build_report(&args.corpus, pages, 0.1);
    assert_eq!(report.overall.pages, 3);
    assert_eq!(report.groups.len(), 2);
    assert_eq!(
        report.overall.start.values().sum::<usize>(),
        3,
        "every page has a start class"
    );
    let html = dir.join("out/report.html");
    std::fs::create_dir_all(dir.join("out")).expect("out dir");
    ev::report::write_html(&report, &html).expect("html report");
    let index = std::fs::read_to_string(&html).expect("read report");
    assert!(index.contains("<svg") && index.contains("report_pages/0000.html"));
    let page = std::fs::read_to_string(dir.join("out/report_pages/0002.html")).expect("page view");
    assert!(page.contains("Gold tree") && page.contains("§ 2 Vertragsschluss"));
    let json = serde_json::to_value(&report).expect("json report");
    assert_eq!(json["pages"].as_array().map(Vec::len), Some(3));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn eval_run_writes_and_guards_a_baseline() {
    let (dir, mut args) = synthetic_corpus();
    let baseline = dir.join("baseline.json");
    args.baseline = Some(baseline.clone());
    args.write_baseline = true;
    args.json = true;
    assert_eq!(ev::run(&args).expect("run"), 0);
    let recorded: Baseline =
        serde_json::from_str(&std::fs::read_to_string(&baseline).expect("baseline written"))
            .expect("baseline parses");
    args.write_baseline = false;
    assert_eq!(ev::run(&args).expect("run"), 0, "same figures pass");
    let higher = Baseline {
        token_f1: recorded.token_f1 + 0.05,
        ..recorded
    };
    std::fs::write(&baseline, serde_json::to_string(&higher).expect("json")).expect("write");
    assert_eq!(
        ev::run(&args).expect("run"),
        1,
        "a drop of 0.05 fails the guard"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

const PRIVACY_PAGE: &str = "<!doctype html><html><head><title>Beispiel-Shop</title></head>\
    <body><main><h2>Wer wir sind</h2><p>Verantwortlich für die Verarbeitung Ihrer \
    personenbezogenen Daten ist die Beispiel GmbH.</p><h2>Ihre Rechte</h2><p>Nach der DSGVO \
    haben Sie ein Auskunftsrecht über die personenbezogenen Daten, die wir verarbeiten, und \
    das Recht auf Löschung. Die Speicherdauer richtet sich nach den gesetzlichen \
    Aufbewahrungsfristen.</p><h2>Bestellungen</h2><p>Wenn Sie bei uns bestellen, verarbeiten \
    wir Ihren Namen, Ihre Anschrift und Ihre E-Mail-Adresse, um den Vertrag zu erfüllen \
    (Art. 6 Abs. 1 lit. b DSGVO). Ihre Daten geben wir nur an den Versanddienstleister und \
    den Zahlungsdienstleister weiter, soweit dies für die Lieferung und die Zahlung nötig \
    ist.</p><h2>Beschwerderecht</h2><p>Sie haben das Recht, sich bei einer \
    Datenschutz-Aufsichtsbehörde über die Verarbeitung Ihrer personenbezogenen Daten zu \
    beschweren.</p></main></body></html>";

const ARTICLE_PAGE: &str = "<!doctype html><html><head><title>Five tips for sourdough | \
    Bread Blog</title></head><body><article><h1>Five tips for a better sourdough</h1><p>\
    Sourdough baking has become a favourite hobby. Here are five tips that helped me bake a \
    better loaf at home, from feeding the starter to the long cold rise.</p><h2>Feed your \
    starter</h2><p>A lively starter is the heart of every good bread: feed it twice a day and \
    keep it somewhere warm.</p><h2>Be patient</h2><p>Let the dough rise slowly, ideally \
    overnight in the fridge. The flavour improves with time.</p></article></body></html>";

#[test]
fn eval_scores_document_types_and_the_legal_verdict() {
    let (dir, mut args) = synthetic_corpus();
    // A static mirror page without text gold (type-only: privacy by its file name, with no
    // telling title: the words decide), a non-legal article listed in gold-nonlegal.tsv, and
    // the index that labels the AGB page.
    let mirror = dir.join("raw/static-shop/de");
    std::fs::create_dir_all(&mirror).expect("mirror dir");
    std::fs::write(mirror.join("datenschutz.html"), PRIVACY_PAGE).expect("write privacy");
    std::fs::create_dir_all(dir.join("legal/misc")).expect("misc dir");
    std::fs::write(dir.join("legal/misc/Misc__bread.html"), ARTICLE_PAGE).expect("write article");
    std::fs::write(
        dir.join("gold-nonlegal.tsv"),
        "html\tgold\tlang\tkind\nlegal/misc/Misc__bread.html\tlegal/misc/x.gt.md\ten\tmarkdown\n",
    )
    .expect("write nonlegal manifest");
    std::fs::write(
        dir.join("raw/legal_pages_index.csv"),
        "file,source,lang,doc_type,full_page,ground_truth,bytes\n\
         shop/de/agb.html,\"a shop, by hand\",de,terms,yes,markdown,1\n",
    )
    .expect("write index");
    args.types = true;
    args.types_manifest = vec![dir.join("gold-nonlegal.tsv")];

    let entries = ev::entries(&args).expect("entries");
    let labels = ev::types::Labels::load(&args.corpus);
    let options = tcx::AnalysisOptions::default();
    let pages = ev::evaluate_all_labelled(&entries, &options, 2, &labels).expect("eval");
    let extra = ev::type_only_pages(&args, &entries).expect("type-only pages");
    let ids: Vec<&str> = extra.iter().map(|(id, _, _)| id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "raw/static-shop/de/datenschutz.html",
            "legal/misc/Misc__bread.html"
        ]
    );
    let type_pages: Vec<_> = extra
        .iter()
        .map(|(id, group, html)| ev::evaluate_type_page(id, group, html, &options, &labels))
        .collect();
    let report = ev::build_report_with_types(&args.corpus, pages, type_pages, 0.1);

    // The token and heading figures count the gold pages only.
    assert_eq!(report.overall.pages, 3);
    let t = &report.types.overall;
    // The AGB page twice (Markdown and JSON gold; the index labels it), the privacy page;
    // the gzipped copy has no label (its name is not in the index).
    assert_eq!(t.typed_pages, 3, "{t:#?}");
    assert_eq!(t.accuracy, Some(1.0), "{t:#?}");
    assert_eq!(t.per_type["terms"].pages, 2);
    assert_eq!(t.per_type["privacy"].recall, 1.0);
    assert_eq!((t.legal_flagged, t.legal_pages), (0, 4));
    assert_eq!((t.nonlegal_recognised, t.nonlegal_pages), (1, 1));
    assert_eq!(report.types.groups["static-mirrors"].typed_pages, 1);
    assert_eq!(report.types.groups["gold-nonlegal"].nonlegal_pages, 1);
    let outcome = report.pages[0].document_type.as_ref().expect("typed page");
    assert_eq!(outcome.expected, Some(tcx_core::DocumentType::Terms));
    assert_eq!(outcome.predicted, Some(tcx_core::DocumentType::Terms));

    let json = serde_json::to_value(&report).expect("json");
    assert_eq!(json["types"]["overall"]["accuracy"], 1.0);
    assert_eq!(json["pages"][0]["document_type"]["predicted"], "terms");
    assert_eq!(json["type_pages"][1]["outcome"]["is_legal"], false);
    let text = ev::report::terminal(&report);
    assert!(text.contains("document types and legal verdict"), "{text}");
    assert!(text.contains("nonlegal recog"), "{text}");

    // The command itself, with the JSON report.
    args.json = true;
    assert_eq!(ev::run(&args).expect("run"), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn eval_reports_missing_files_and_bad_manifests() {
    let dir = temp_dir("broken");
    std::fs::write(
        dir.join("gold.tsv"),
        "html\tgold\tlang\tgold_kind\nraw/x.html\traw/x.md\tde\tmarkdown\n",
    )
    .expect("write manifest");
    let args = EvalArgs {
        corpus: dir.clone(),
        gold_dir: dir.join("none"),
        ..EvalArgs::default()
    };
    let err = ev::entries(&args).expect_err("missing page");
    assert!(format!("{err:#}").contains("not found"));
    std::fs::write(dir.join("gold.tsv"), "a\tb\tc\tpdf\n").expect("write manifest");
    assert!(ev::entries(&args).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Visible text of a page, roughly: scripts/styles dropped, tags to spaces, entities decoded.
fn visible_text(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let mut out = String::with_capacity(html.len());
    let mut i = 0;
    while i < html.len() {
        let Some(rel) = html[i..].find('<') else {
            out.push_str(&html[i..]);
            break;
        };
        out.push_str(&html[i..i + rel]);
        let start = i + rel;
        let mut end = html[start..]
            .find('>')
            .map_or(html.len(), |e| start + e + 1);
        for raw in ["script", "style", "noscript", "template"] {
            if lower[start..].starts_with(&format!("<{raw}")) {
                end = lower[start..]
                    .find(&format!("</{raw}"))
                    .map_or(html.len(), |e| start + e);
            }
        }
        out.push(' ');
        i = end;
    }
    htmlize::unescape(out).into_owned()
}

fn gold_dir() -> PathBuf {
    crate_dir().join("tests/gold")
}

#[test]
fn hand_labelled_golds_are_well_formed() {
    // The written pages lie in the repository and are checked always; the real pages need
    // the shared corpus.
    let corpus = shared_corpus();
    let entries = gold::json_entries(
        &gold_dir(),
        corpus.as_deref().unwrap_or(Path::new("/nonexistent")),
    )
    .expect("json golds load");
    let written: Vec<_> = entries
        .iter()
        .filter(|e| e.group == gold::WRITTEN_GROUP)
        .collect();
    assert!(written.len() >= 10, "at least 10 written pages");
    assert!(written.iter().all(|e| e.id.starts_with("written/")));
    let real = entries.len() - written.len();
    assert!(real >= 15, "at least 15 hand-labelled golds");
    let german = entries
        .iter()
        .filter(|e| e.lang == "de" && e.group != gold::WRITTEN_GROUP)
        .count();
    assert!(german >= 15, "at least 15 German pages, got {german}");
    for e in &entries {
        let g = gold::read_json_gold(&e.gold).expect("gold parses");
        assert_eq!(g.written, e.group == gold::WRITTEN_GROUP, "{}", e.id);
        assert!(
            measures::tokens(&g.first_words).len() >= measures::EDGE_TOKENS
                && measures::tokens(&g.last_words).len() >= measures::EDGE_TOKENS,
            "{}: first/last words need 8 tokens",
            e.id
        );
        assert!(!g.headings.is_empty(), "{}: no headings", e.id);
        if corpus.is_none() && !g.written {
            continue;
        }
        let bytes = ev::read_page(&e.html).expect("page readable");
        let page = measures::tokens(&visible_text(&ev::decode_page(&bytes)));
        let first = measures::tokens(&g.first_words);
        let last = measures::tokens(&g.last_words);
        assert!(
            measures::find_first(&page, measures::opening(&first)).is_some(),
            "{}: the first words are not contiguous page text",
            e.id
        );
        assert!(
            measures::find_last(&page, measures::closing(&last)).is_some(),
            "{}: the last words are not contiguous page text",
            e.id
        );
    }
}

#[test]
fn eval_on_the_shared_corpus() {
    let Some(corpus) = shared_corpus() else {
        return;
    };
    // Markdown and hand-labelled golds: the pages with headings (the news pages are run by
    // `tcx eval` itself; a debug build here would only be slow).
    let args = EvalArgs {
        corpus: corpus.clone(),
        gold_dir: gold_dir(),
        ..EvalArgs::default()
    };
    let mut entries = ev::entries(&args).expect("entries");
    let all = entries.len();
    entries.retain(|e| e.kind != GoldKind::Text);
    assert!(all >= 229, "the manifest lists the corpus pages ({all})");
    let started = std::time::Instant::now();
    let pages = ev::evaluate_all(&entries, &tcx::AnalysisOptions::default(), 2).expect("eval");
    let report = ev::build_report(&corpus, pages, started.elapsed().as_secs_f64());
    let written = entries
        .iter()
        .filter(|e| e.group == gold::WRITTEN_GROUP)
        .count();
    assert!(written >= 10, "the written pages are in the run");
    assert_eq!(
        report.overall.pages,
        entries.len() - written,
        "overall: real pages"
    );
    assert_eq!(report.groups[gold::WRITTEN_GROUP].pages, written);
    assert!(report.pages.iter().all(|p| {
        p.hierarchy
            .as_ref()
            .is_none_or(|h| (0.0..=1.0).contains(&h.error_score))
    }));
    assert!(
        report.overall.heading_pages >= 55,
        "OTA and hand-labelled pages have headings"
    );
    // Document types of the OTA and hand-labelled pages (their labels are the file names and
    // raw/legal_pages_index.csv; the eval run uses the same labels).
    let labels = ev::types::Labels::load(&corpus);
    let items: Vec<ev::types::TypeItem> = report
        .pages
        .iter()
        .map(|p| {
            let outcome = p.document_type.as_ref();
            let expected = outcome.and_then(|o| o.expected);
            assert_eq!(expected, labels.expected_type(&p.html), "{}", p.id);
            ev::types::TypeItem {
                html: &p.html,
                outcome,
                failed: p.error.is_some(),
            }
        })
        .collect();
    let types = ev::types::summarize(&items, &labels);
    println!("document types: {types:?}");
    assert!(types.typed_pages >= 60, "{types:?}");
    assert!(types.accuracy.is_some_and(|a| a >= 0.95), "{types:?}");
    assert!(
        types.legal_flagged * 100 <= types.legal_pages * 3,
        "{types:?}"
    );
    let errors = report.overall.start[&Edge::ProcessingError];
    println!(
        "{} pages in {:.1}s, {} processing errors\n{}",
        report.overall.pages,
        report.seconds,
        errors,
        ev::report::terminal(&report)
    );
}
