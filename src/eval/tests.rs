use super::*;

fn section(
    title: Option<&str>,
    number: Option<&str>,
    paras: &[&str],
    subs: Vec<Section>,
) -> Section {
    let mut s = Section::new(title.map(str::to_owned), number.map(str::to_owned), 1);
    s.paragraphs = paras.iter().map(|s| (*s).to_owned()).collect();
    s.subsections = subs;
    s
}

#[test]
fn untitled_sections_are_transparent() {
    let tree = vec![
        section(None, None, &["preamble"], vec![]),
        section(
            Some("Geltungsbereich"),
            Some("§ 1"),
            &["intro"],
            vec![
                section(
                    None,
                    Some("(1)"),
                    &["clause one"],
                    vec![section(Some("Unterpunkt"), None, &["deep"], vec![])],
                ),
                section(Some("2. Next"), Some("2."), &["x"], vec![]),
            ],
        ),
    ];
    let t = extracted_tree(&tree);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].title, "§ 1 Geltungsbereich");
    assert_eq!(t[0].children.len(), 2);
    assert_eq!(t[0].children[0].title, "Unterpunkt");
    assert_eq!(t[0].children[1].title, "2. Next");
    assert_eq!(
        t[0].text.as_deref(),
        Some("intro\nclause one\nUnterpunkt\ndeep\n2. Next\nx")
    );
}

fn entry(kind: GoldKind) -> Entry {
    Entry {
        id: "x".into(),
        html: PathBuf::from("x.html"),
        gold: PathBuf::from("x.md"),
        gold_key: None,
        lang: "de".into(),
        kind,
        group: "g".into(),
    }
}

#[test]
fn processing_error_scores() {
    let (text, heads) = gold::parse_markdown("# A\n\nsome text here\n");
    let g = Gold::from_text(text, heads);
    let r = score_page(
        &entry(GoldKind::Markdown),
        g,
        Err("parser: boom".into()),
        1.0,
    );
    assert_eq!(r.start, Edge::ProcessingError);
    assert_eq!(r.end, Edge::ProcessingError);
    assert_eq!(r.tokens.map(|p| p.f1), Some(0.0));
    assert_eq!(r.hierarchy.as_ref().map(|h| h.error_score), Some(1.0));
    let s = summarize(&[&r]);
    assert_eq!(s.processing_errors, 1);
    assert_eq!(s.start[&Edge::ProcessingError], 1);
    assert_eq!(s.error_buckets[6], 1);
}

#[test]
fn perfect_page_scores() {
    let md =
        "# Titel\n\nErster Absatz mit genug Wörtern für den Anfang hier.\n\n## 1. Teil\n\nText.\n";
    let (text, heads) = gold::parse_markdown(md);
    let g = Gold::from_text(text, heads);
    let sections = vec![section(
        Some("Titel"),
        None,
        &["Erster Absatz mit genug Wörtern für den Anfang hier."],
        vec![section(Some("Teil"), Some("1."), &["Text."], vec![])],
    )];
    let extracted =
        "Titel\nErster Absatz mit genug Wörtern für den Anfang hier.\n1. Teil\nText.".to_owned();
    let r = score_page(
        &entry(GoldKind::Markdown),
        g,
        Ok((extracted, sections)),
        1.0,
    );
    assert_eq!(r.tokens.map(|p| p.f1), Some(1.0));
    assert_eq!((r.start, r.end), (Edge::Correct, Edge::Correct));
    let h = r.hierarchy.as_ref().unwrap();
    assert_eq!(h.prf.f1, 1.0);
    assert_eq!(h.error_score, 0.0);
}

#[test]
fn json_gold_has_no_token_measure() {
    let j = gold::JsonGold {
        written: false,
        html: "x".into(),
        lang: "de".into(),
        doc_type: None,
        first_words: "eins zwei drei".into(),
        last_words: "sieben acht neun".into(),
        headings: vec![],
        notes: None,
    };
    let r = score_page(
        &entry(GoldKind::Json),
        Gold::from_json(&j),
        Ok(("Menü eins zwei drei vier sieben acht neun".into(), vec![])),
        1.0,
    );
    assert!(r.tokens.is_none());
    assert!(r.hierarchy.is_none());
    assert_eq!((r.start, r.end), (Edge::Correct, Edge::Correct));
}

#[test]
fn baseline_guard() {
    let base = Baseline {
        token_f1: 0.80,
        heading_f1: 0.60,
        pages: 1,
        command: String::new(),
    };
    let mut now = base.clone();
    assert!(base.regressions(&now, 0.02).is_empty());
    now.token_f1 = 0.785;
    assert!(base.regressions(&now, 0.02).is_empty());
    now.token_f1 = 0.77;
    now.heading_f1 = 0.70;
    assert_eq!(base.regressions(&now, 0.02).len(), 1);
    now.heading_f1 = 0.5;
    assert_eq!(base.regressions(&now, 0.02).len(), 2);
}

#[test]
fn decodes_bom_charset_and_fallback() {
    assert_eq!(decode_page("<p>ä</p>".as_bytes()), "<p>ä</p>");
    assert_eq!(decode_page(b"\xef\xbb\xbf<p>x</p>"), "<p>x</p>");
    assert_eq!(
        decode_page(b"<meta charset=\"iso-8859-1\"><p>\xe4</p>"),
        "<meta charset=\"iso-8859-1\"><p>ä</p>"
    );
    assert_eq!(decode_page(b"<p>\xfc</p>"), "<p>ü</p>");
}
