//! End-to-end analysis of small pages of our own: bytes in, Document parts out.

use proptest::prelude::*;
use tcx::{AnalysisOptions, AnalyzeError, analyze};
use tcx_core::ContentMethod;
use tcx_core::Section;
use tcx_core::stages::StyleStats;

pub const DEMO_SHOP: &str = include_str!("../fixtures/demo-shop.html");

fn opts() -> AnalysisOptions {
    AnalysisOptions::default()
}

fn titles(sections: &[Section]) -> Vec<String> {
    let mut out = Vec::new();
    for s in sections {
        out.push(format!(
            "{}{}",
            "-".repeat(s.level as usize - 1),
            s.title.clone().unwrap_or_default()
        ));
        out.extend(titles(&s.subsections));
    }
    out
}

#[test]
fn demo_shop_content_block_and_only_that() {
    // The slides' demonstration threshold (0.95) and the production default agree here.
    for threshold in [0.85, 0.95] {
        let a = analyze(
            DEMO_SHOP,
            &AnalysisOptions {
                threshold,
                ..opts()
            },
        )
        .unwrap();
        assert_eq!(a.content.method, ContentMethod::Lca);
        assert_eq!(a.content.path, "/html/body/div[2]");
        assert_eq!(a.content.most_common_style, "p");
        assert!(a.content.coverage > 0.95, "{}", a.content.coverage);
        assert!(
            a.text
                .starts_with("Terms and Conditions\n1. Lorem Ipsum\nLorem ipsum")
        );
        assert!(a.text.ends_with("Quisque rutrum."));
        for boilerplate in ["Welcome", "Navigation", "Products", "Thanks for visiting"] {
            assert!(!a.text.contains(boilerplate), "{boilerplate} leaked");
        }
        assert_eq!(
            titles(&a.sections),
            [
                "Terms and Conditions",
                "-1. Lorem Ipsum",
                "--1.1 Donec quam",
                "--1.2 In enim justo, rhoncus",
                "-2. Aenean leo"
            ]
        );
        assert_eq!(a.title.as_deref(), Some("Demo-Shop – Terms and Conditions"));
        // The Demo-Shop's text is Lorem ipsum under English titles: reported as Latin.
        assert_eq!(a.language.as_ref().map(|l| l.code.as_str()), Some("la"));
    }
}

#[test]
fn page_without_content_container_uses_the_fallback() {
    let para = "<p>Der Verkäufer liefert die Ware innerhalb von fünf Werktagen an die angegebene Adresse.</p>\n";
    let html = format!(
        "<html><body>\n<nav><a href=/>Start</a> <a href=/agb>AGB</a></nav>\n<h1>AGB</h1>\n{}\n<div class=footer>Copyright 2024 Beispiel GmbH, alle Rechte vorbehalten</div>\n</body></html>",
        para.repeat(6)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert_eq!(a.content.method, ContentMethod::Fallback);
    // The body-level `h1` just before the run is its title (issue 12), then the six clauses.
    assert_eq!(a.blocks.len(), 7);
    assert!(a.text.starts_with("AGB\nDer Verkäufer"), "{}", a.text);
    assert!(!a.text.contains("Copyright") && !a.text.contains("Start"));
    assert!(
        a.content.path.contains("/html/body/p[1] | "),
        "{}",
        a.content.path
    );
}

#[test]
fn malformed_markup_is_repaired_like_a_browser() {
    let html = "<html><body><div id=c>\
        <p>Erster Absatz mit genug Wörtern für die Zählung\
        <p>Zweiter Absatz <p>im Absatz mit genug Wörtern hier</p></span></b>\
        <ul><li>Punkt eins mit vier Wörtern<li>Punkt zwei mit vier Wörtern</ul>\
        <div>Offenes div mit Text darin und mehr\
        </div></div></td></tr>\
        <div>nav</div><div>Unclosed at the very end of input";
    let a = analyze(html, &opts()).unwrap();
    let texts: Vec<&str> = a.blocks.iter().map(|b| b.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "Erster Absatz mit genug Wörtern für die Zählung",
            "Zweiter Absatz",
            "im Absatz mit genug Wörtern hier",
            "Punkt eins mit vier Wörtern",
            "Punkt zwei mit vier Wörtern",
            "Offenes div mit Text darin und mehr"
        ]
    );
    assert_eq!(a.content.path, "/html/body/div[1]");
}

#[test]
fn entities_split_across_chunks_give_the_same_statistics() {
    let html = "<body><div title=\"a&amp;b\"><p>Gr&ouml;&szlig;e &amp; Gewicht &#8364; &#x20AC; &nbsp; der Ware hier</p></div></body>";
    let whole = StyleStats::scan(html, &opts()).unwrap();
    for size in 1..8 {
        let chunks: Vec<&[u8]> = html.as_bytes().chunks(size).collect();
        assert_eq!(
            StyleStats::scan_chunks(chunks, html.len(), &opts()).unwrap(),
            whole
        );
    }
    let a = analyze(html, &opts()).unwrap();
    assert_eq!(a.text, "Größe & Gewicht € € der Ware hier");
}

#[test]
fn legacy_encodings_with_umlauts() {
    let body =
        "<p>Gewährleistung für Mängel: Die Rücksendung ist kostenfrei, Preis 5 € inkl. Größe</p>";
    for (label, meta) in [
        ("windows-1252", true),
        ("ISO-8859-1", true),
        ("windows-1252", false),
    ] {
        let head = if meta {
            format!("<meta charset=\"{label}\">")
        } else {
            String::new()
        };
        let page = format!("<html><head>{head}<title>AGB</title></head><body>{body}</body></html>");
        let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&page);
        assert!(!bytes.contains(&0xC3), "really single-byte");
        let fetched = tcx::source::page_from_bytes(&bytes, "file:///x.html".into());
        let a = analyze(&fetched.html, &opts()).unwrap();
        assert!(
            a.text.contains("Gewährleistung für Mängel"),
            "{label}/{meta}: {}",
            a.text
        );
        assert!(
            a.text.contains("Größe") && a.text.contains("5 €"),
            "{}",
            a.text
        );
    }
}

#[test]
fn empty_and_textless_pages_are_clear_errors() {
    assert!(matches!(analyze("", &opts()), Err(AnalyzeError::Empty)));
    assert!(matches!(
        analyze("   \n", &opts()),
        Err(AnalyzeError::Empty)
    ));
    assert!(matches!(
        analyze(
            "<html><head><title>x</title></head><body></body></html>",
            &opts()
        ),
        Err(AnalyzeError::NoText)
    ));
    assert!(matches!(
        analyze("%PDF-1.4\n...", &opts()),
        Err(AnalyzeError::NotHtml(_))
    ));
    assert!(matches!(
        analyze("plain words only", &opts()),
        Err(AnalyzeError::NotHtml(_))
    ));
    let e = analyze("", &opts()).unwrap_err();
    assert_eq!((e.kind(), e.retryable()), ("empty", false));
}

#[test]
fn page_without_body_tag() {
    let a = analyze(
        "<html><div><h2>1. Geltung</h2><p>Diese Bedingungen gelten für alle Bestellungen.</p>\
         <h2>2. Preise</h2><p>Alle Preise enthalten die gesetzliche Umsatzsteuer.</p></div></html>",
        &opts(),
    )
    .unwrap();
    assert_eq!(a.sections[0].title.as_deref(), Some("1. Geltung"));
    let a = analyze("<p>Nur ein Absatz ohne html und body Element.</p>", &opts()).unwrap();
    assert_eq!(a.text, "Nur ein Absatz ohne html und body Element.");
}

#[test]
fn five_megabyte_page() {
    let clause = "<p>Der Kunde kann den Vertrag innerhalb von vierzehn Tagen ohne Angabe von Gründen widerrufen.</p>\n";
    let mut html = String::from("<html><body><nav>Menü Start Shop Kontakt</nav><main>");
    let mut n = 0;
    while html.len() < 5 * 1024 * 1024 {
        n += 1;
        html.push_str(&format!("<h2>§ {n} Abschnitt</h2>\n"));
        html.push_str(clause);
    }
    html.push_str("</main><footer>Impressum Datenschutz</footer></body></html>");
    let a = analyze(&html, &opts()).unwrap();
    assert_eq!(a.content.path, "/html/body/main");
    assert_eq!(a.sections.len(), n);
    assert!(!a.text.contains("Impressum"));
}

#[test]
fn ten_thousand_nested_divs() {
    let html = format!(
        "<html><body>{}<p>Tief verschachtelter Text mit genug Wörtern.</p>{}</body></html>",
        "<div>".repeat(10_000),
        "</div>".repeat(10_000)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert_eq!(a.text, "Tief verschachtelter Text mit genug Wörtern.");
    // The paragraph brings its innermost container (which holds nothing else).
    assert!(a.content.path.ends_with("/div"), "{}", a.content.path);
    // Unclosed as well.
    let html = format!(
        "<body>{}<p>Noch mehr Text in der Tiefe hier",
        "<div>".repeat(10_000)
    );
    assert!(analyze(&html, &opts()).is_ok());
    // Stray end tags of a name no open element has, under all of them, close nothing (and
    // are found stray without a walk down the 10,000 open elements each).
    let html = format!(
        "<body><span>kurz</span>{}<p>Text unter vielen falschen Endtags hier</p>{}{}",
        "<div>".repeat(10_000),
        "</span>".repeat(10_000),
        "</div>".repeat(10_000)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.contains("Text unter vielen falschen Endtags hier"));
    assert!(a.content.path.ends_with("/div"), "{}", a.content.path);
}

#[test]
fn threshold_option_is_respected() {
    let html = "<body><div><p>one two three four five</p><p>one two three four five</p><p>one two three four five</p></div><p>one two three four five</p></body>";
    let a = analyze(
        html,
        &AnalysisOptions {
            threshold: 0.75,
            ..opts()
        },
    )
    .unwrap();
    assert_eq!(a.content.method, ContentMethod::Lca);
    let a = analyze(
        html,
        &AnalysisOptions {
            threshold: 0.8,
            ..opts()
        },
    )
    .unwrap();
    assert_eq!(a.content.method, ContentMethod::Fallback);
}

/// Corpus pages (when present) to mutate; a few small built-in pages otherwise.
fn seed_pages() -> Vec<String> {
    let mut pages = vec![DEMO_SHOP.to_owned()];
    if let Some(dir) = crate::corpus::corpus_dir() {
        for p in crate::corpus::html_files(&dir.join("raw/static-novogenia"))
            .into_iter()
            .take(3)
        {
            if let Ok(bytes) = tcx::source::read_file(&p, tcx::source::DEFAULT_MAX_INPUT_BYTES) {
                pages.push(tcx::source::page_from_bytes(&bytes, String::new()).html);
            }
        }
    }
    pages
}

fn check(html: &str) {
    match analyze(html, &opts()) {
        Ok(a) => {
            assert!(a.content.coverage >= 0.0 && a.content.coverage <= 1.0 + 1e-9);
        }
        Err(
            AnalyzeError::Empty
            | AnalyzeError::NotHtml(_)
            | AnalyzeError::NoText
            | AnalyzeError::ScriptRendered(_)
            | AnalyzeError::Parser(_),
        ) => {}
        Err(e) => panic!("unexpected error kind {e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn truncated_spliced_and_mutated_pages_never_panic(
        seed in 0usize..16,
        cut_a in 0.0f64..1.0,
        cut_b in 0.0f64..1.0,
        mutations in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 0..40),
    ) {
        let pages = seed_pages();
        let page = pages[seed % pages.len()].as_bytes();
        let (a, b) = ((cut_a * page.len() as f64) as usize, (cut_b * page.len() as f64) as usize);
        let (lo, hi) = (a.min(b), a.max(b));
        // Splice: the page with [lo, hi) moved to the front, truncated at the end.
        let mut bytes = [&page[lo..hi], &page[..lo]].concat();
        for (at, byte) in mutations {
            if !bytes.is_empty() {
                let i = ((at * bytes.len() as f64) as usize).min(bytes.len() - 1);
                bytes[i] = byte;
            }
        }
        let html = String::from_utf8_lossy(&bytes);
        check(&html);
    }

    #[test]
    fn random_bytes_and_tag_soup_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..2000),
        soup in proptest::collection::vec(prop_oneof![
            Just("<p>"), Just("</p>"), Just("<div>"), Just("</div>"), Just("<li>"), Just("<ul>"),
            Just("</ul>"), Just("<table>"), Just("<td>"), Just("<tr>"), Just("<br>"), Just("<h2>"),
            Just("</h2>"), Just("<script>"), Just("</script>"), Just("<svg>"), Just("&amp;"),
            Just("&#x20AC;"), Just("<!--"), Just("-->"), Just("§ 1 "), Just("(a) "),
            Just("Wort eins zwei drei vier "), Just("<body>"), Just("</body>"), Just("<head>"),
            Just("<title>"), Just("<b>"), Just("</b>"), Just("<a href=x>"), Just("</a>"),
        ], 0..300),
    ) {
        check(&String::from_utf8_lossy(&bytes));
        check(&soup.concat());
    }
}

/// A shop page holding its AGB, its withdrawal notice and the model withdrawal form as three
/// top-level documents, analysed from HTML: the page is terms, each document has its type.
#[test]
fn a_page_of_several_documents_gets_a_type_per_document() {
    let html = "<html><head><title>AGB und Kundeninformationen | Beispiel-Shop</title></head>\
        <body><nav><a href=/>Start</a> <a href=/shop>Shop</a></nav><main>\
        <h1>Allgemeine Geschäftsbedingungen</h1>\
        <h2>§ 1 Geltungsbereich</h2><p>Diese AGB gelten für alle Verträge zwischen dem Kunden \
        und der Beispiel GmbH, die über den Online-Shop geschlossen werden.</p>\
        <h2>§ 2 Vertragsschluss</h2><p>Die Darstellung der Produkte stellt kein bindendes \
        Angebot dar. Der Vertrag kommt mit unserer Auftragsbestätigung zustande.</p>\
        <h2>§ 3 Eigentumsvorbehalt</h2><p>Die Ware bleibt bis zur vollständigen Zahlung unser \
        Eigentum.</p>\
        <h1>Widerrufsbelehrung</h1><h2>Widerrufsrecht</h2><p>Sie haben das Recht, binnen \
        vierzehn Tagen ohne Angabe von Gründen diesen Vertrag zu widerrufen. Die Widerrufsfrist \
        beträgt vierzehn Tage ab dem Tag, an dem Sie die Waren in Besitz genommen haben.</p>\
        <h2>Folgen des Widerrufs</h2><p>Wenn Sie diesen Vertrag widerrufen, haben wir Ihnen \
        alle Zahlungen zurückzuzahlen.</p>\
        <h1>Muster-Widerrufsformular</h1><p>Wenn Sie den Vertrag widerrufen wollen, dann füllen \
        Sie bitte dieses Formular aus und senden Sie es zurück.</p><p>Hiermit widerrufe(n) \
        ich/wir den von mir/uns abgeschlossenen Vertrag über den Kauf der folgenden Waren.</p>\
        </main><footer>© Beispiel-Shop</footer></body></html>";
    let a = analyze(html, &opts()).expect("analysis");
    let url = "https://shop.example/agb".to_owned();
    let source = tcx_core::Source::new(Some(url.clone()), Some(url), None, None);
    let doc = tcx_core::Document::from_analysis(a, source, String::new());
    assert_eq!(doc.schema_version, "1.2");
    let page = doc.document_type.as_ref().expect("typed page");
    assert_eq!(page.kind, tcx_core::DocumentType::Terms);
    assert!(
        page.evidence
            .iter()
            .any(|e| e.source == tcx_core::EvidenceSource::Url),
        "{page:?}"
    );
    let typed: Vec<(Option<&str>, Option<&str>)> = doc
        .sections
        .iter()
        .map(|s| {
            (
                s.title.as_deref(),
                s.document_type.as_ref().map(|t| t.kind.name()),
            )
        })
        .collect();
    assert_eq!(
        typed,
        [
            (Some("Allgemeine Geschäftsbedingungen"), Some("terms")),
            (Some("Widerrufsbelehrung"), Some("withdrawal")),
            (Some("Muster-Widerrufsformular"), Some("withdrawal")),
        ]
    );
    assert!(tcx_core::legal_page_verdict(&doc).is_legal);
}

/// A product page and a blog article, analysed from HTML, are not legal pages; a French
/// imprint is, and is typed so.
#[test]
fn pages_that_are_not_legal_are_told_apart() {
    let verdict = |html: &str| {
        let a = analyze(html, &opts()).expect("analysis");
        let doc = tcx_core::Document::from_analysis(a, tcx_core::Source::default(), String::new());
        (tcx_core::legal_page_verdict(&doc), doc.document_type)
    };
    let (product, _) = verdict(
        "<html><head><title>Sommerkleid Blau – Beispiel-Shop</title></head><body><main>\
         <h1>Sommerkleid Blau</h1><p>Leichtes Sommerkleid aus reiner Baumwolle mit \
         V-Ausschnitt. Perfekt für warme Tage am Strand oder in der Stadt.</p><p>49,90 € inkl. \
         MwSt. zzgl. Versandkosten. Lieferzeit 2–3 Werktage. Zahlung per PayPal.</p><p>In den \
         Warenkorb</p><h2>Kundenbewertungen</h2><p>Sehr schöner Stoff, fällt normal aus.</p>\
         </main><footer><a href=/agb>AGB</a> <a href=/impressum>Impressum</a></footer>\
         </body></html>",
    );
    assert!(!product.is_legal, "{product:?}");
    let (article, _) = verdict(
        "<html><head><title>Five tips for a better sourdough | The Bread Blog</title></head>\
         <body><article><h1>Five tips for a better sourdough</h1><p>Sourdough baking has \
         become a favourite hobby. Here are five tips that helped me bake a better loaf.</p>\
         <h2>Feed your starter</h2><p>A lively starter is the heart of every good bread: feed \
         it twice a day and keep it somewhere warm.</p><h2>Be patient</h2><p>Let the dough \
         rise slowly, ideally overnight in the fridge.</p></article></body></html>",
    );
    assert!(!article.is_legal, "{article:?}");
    let (imprint, kind) = verdict(
        "<html><head><title>Mentions légales – Boutique Exemple</title></head><body><main>\
         <h1>Mentions légales</h1><p>Éditeur du site : Exemple SAS au capital social de \
         10 000 euros, RCS Paris 123 456 789, SIRET 123 456 789 00012, siège social : 1 rue \
         de la Paix, 75002 Paris. Directeur de la publication : Jean Dupont.</p><p>Hébergeur : \
         OVH SAS, 2 rue Kellermann, 59100 Roubaix.</p></main></body></html>",
    );
    assert!(imprint.is_legal, "{imprint:?}");
    assert_eq!(kind.map(|t| t.kind), Some(tcx_core::DocumentType::Imprint));
}

#[test]
fn general_delivery_terms_are_terms() {
    // "Allgemeine … bedingungen" are AGB by definition, also as truncated compounds.
    use tcx_core::{DocumentType, type_of_label};
    for label in [
        "Allgemeine Verkaufs- und Lieferbedingungen",
        "Allgemeine Liefer- und Zahlungsbedingungen",
        "Allgemeine Lieferbedingungen",
        "Allgemeine Einkaufsbedingungen",
    ] {
        assert_eq!(type_of_label(label), Some(DocumentType::Terms), "{label}");
    }
    for label in ["Liefer- und Versandbedingungen", "Allgemeine Lieferzeiten"] {
        assert_eq!(
            type_of_label(label),
            Some(DocumentType::ShippingPayment),
            "{label}"
        );
    }
}
