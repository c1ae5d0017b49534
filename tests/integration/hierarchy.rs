//! Hierarchy extraction (issue 3): static styles, visual headings, enumerations, lists, tables
//! and several documents on one page, each rule with its own page.

use std::path::Path;

use tcx::analyze::blocks::blocks_with_styles;
use tcx::analyze::enumeration::{self, Decoration, NumberKind};
use tcx::analyze::hierarchy::sections;
use tcx::analyze::style::ComputedStyles;
use tcx::analyze::{AnalysisOptions, ReducedTree, analyze};
use tcx::output::Section;

/// The section tree of a whole fragment (no content selection), with `<style>` sheets.
fn tree(html: &str, css: &[&str]) -> Vec<Section> {
    let whole = 0..html.len();
    let t = ReducedTree::build(
        html,
        std::slice::from_ref(&whole),
        &AnalysisOptions::default(),
    )
    .unwrap();
    let sheets: Vec<String> = css.iter().map(|s| s.to_string()).collect();
    let styles = ComputedStyles::compute(&t, &sheets);
    sections(&blocks_with_styles(&t, &styles))
}

/// `title [children]` outline; untitled sections show as `<number>` (`<>` without one).
fn outline(sections: &[Section]) -> String {
    sections
        .iter()
        .map(|s| {
            let mut out = s
                .title
                .clone()
                .unwrap_or_else(|| format!("<{}>", s.number.clone().unwrap_or_default()));
            if !s.subsections.is_empty() {
                out.push_str(&format!(" [{}]", outline(&s.subsections)));
            }
            out
        })
        .collect::<Vec<_>>()
        .join(", ")
}

const LOREM: &str = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.";
const VERTRAG: &str =
    "Der Vertrag kommt mit der Annahme der Bestellung durch uns zustande und gilt unbefristet.";

#[test]
fn demo_shop_of_the_paper() {
    let html = include_str!("../fixtures/demo-shop.html");
    let a = analyze(
        html,
        &AnalysisOptions {
            threshold: 0.95,
            ..AnalysisOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        outline(&a.sections),
        "Terms and Conditions [1. Lorem Ipsum [1.1 Donec quam, 1.2 In enim justo, rhoncus], 2. Aenean leo]"
    );
    let lorem = &a.sections[0].subsections[0];
    assert_eq!(lorem.paragraphs.len(), 1);
    assert_eq!(lorem.subsections[0].paragraphs.len(), 1);
}

#[test]
fn bold_paragraph_titles_without_heading_tags() {
    let html = format!(
        "<div><p><b>Geltungsbereich</b></p><p>{VERTRAG}</p><p><strong>Vertragsschluss</strong></p><p>{VERTRAG}</p>\
         <p><b>Lieferung</b></p><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(outline(&s), "Geltungsbereich, Vertragsschluss, Lieferung");
    assert_eq!(s[1].paragraphs, [VERTRAG]);
}

#[test]
fn div_section_title_styled_by_a_style_rule() {
    let css = ".legal .section-title { font-size: 1.2em; font-weight: 600 } .legal .sub { font-weight: bold }";
    let html = format!(
        "<div class=legal><div class=section-title>Allgemeines</div><div>{LOREM}</div>\
         <div class=sub>Anwendungsbereich</div><div>{LOREM}</div><div class=sub>Sprache</div><div>{LOREM}</div>\
         <div class=section-title>Zahlung</div><div>{LOREM}</div></div>"
    );
    let s = tree(&html, &[css]);
    assert_eq!(
        outline(&s),
        "Allgemeines [Anwendungsbereich, Sprache], Zahlung"
    );
    // Without the sheet nothing distinguishes the titles.
    assert_eq!(outline(&tree(&html, &[])), "<>");
}

#[test]
fn section_sign_titles_with_numbered_clauses_as_paragraphs() {
    let html = "<div><p>§ 1 Geltungsbereich</p>\
        <p>(1) Diese Geschäftsbedingungen gelten für alle Verträge zwischen uns und dem Kunden.</p>\
        <p>(2) Abweichende Bedingungen des Kunden gelten nur, wenn wir ihnen zustimmen.</p>\
        <p>§ 2 Vertragsschluss</p><p>(1) Die Darstellung der Produkte ist kein bindendes Angebot.</p>\
        <p>(2) Mit der Bestellung gibt der Kunde ein verbindliches Angebot ab, das wir annehmen.</p></div>";
    let s = tree(html, &[]);
    assert_eq!(outline(&s), "§ 1 Geltungsbereich, § 2 Vertragsschluss");
    assert_eq!(s[0].number.as_deref(), Some("§ 1"));
    assert_eq!(s[0].paragraphs.len(), 2);
    assert!(s[1].paragraphs[1].starts_with("(2) Mit der Bestellung"));
}

#[test]
fn roman_parts_with_numbered_sections() {
    let html = format!(
        "<div><h2>I. Allgemeine Geschäftsbedingungen</h2><h3>1. Geltung</h3><p>{VERTRAG}</p>\
         <h3>2. Vertragsschluss</h3><p>{VERTRAG}</p><h2>II. Kundeninformationen</h2><h3>1. Identität</h3><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "I. Allgemeine Geschäftsbedingungen [1. Geltung, 2. Vertragsschluss], II. Kundeninformationen [1. Identität]"
    );
    // The same with bold paragraphs only: the Roman class is open above the Arabic one.
    let html = format!(
        "<div><p><b>I. Allgemeine Geschäftsbedingungen</b></p><p><b>1. Geltung</b></p><p>{VERTRAG}</p>\
         <p><b>2. Vertragsschluss</b></p><p>{VERTRAG}</p><p><b>II. Kundeninformationen</b></p><p><b>1. Identität</b></p><p>{VERTRAG}</p></div>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "I. Allgemeine Geschäftsbedingungen [1. Geltung, 2. Vertragsschluss], II. Kundeninformationen [1. Identität]"
    );
}

#[test]
fn table_of_contents_at_the_top_is_text() {
    let html = format!(
        "<div><p>Inhalt</p><p>1. Geltungsbereich</p><p>2. Vertragsschluss</p><p>3. Preise</p>\
         <p>1. Geltungsbereich</p><p>{VERTRAG}</p><p>2. Vertragsschluss</p><p>{VERTRAG}</p><p>3. Preise</p><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "<>, 1. Geltungsbereich, 2. Vertragsschluss, 3. Preise"
    );
    assert_eq!(s[0].paragraphs.len(), 4, "{:?}", s[0].paragraphs);
    assert_eq!(s[1].paragraphs, [VERTRAG]);
}

#[test]
fn shipping_cost_table_becomes_rows() {
    let html = format!(
        "<div><h2>Versandkosten</h2><p>{VERTRAG}</p><table><thead><tr><th>Land</th><th>Versandkosten</th><th>Lieferzeit</th></tr></thead>\
         <tbody><tr><td>Deutschland</td><td>4,90 €</td><td>2–3 Tage</td></tr><tr><td><b>Österreich</b></td><td><b>9,90 €</b></td><td>4–5 Tage</td></tr></tbody></table>\
         <h2>Zahlung</h2><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(outline(&s), "Versandkosten, Zahlung");
    assert_eq!(
        s[0].paragraphs,
        [
            VERTRAG,
            "Land: Deutschland; Versandkosten: 4,90 €; Lieferzeit: 2–3 Tage",
            "Land: Österreich; Versandkosten: 9,90 €; Lieferzeit: 4–5 Tage"
        ]
    );
}

#[test]
fn bold_words_inside_a_sentence_are_not_headings() {
    let html = "<div><p>Der Kunde kann <b>innerhalb von 14 Tagen</b> widerrufen.</p>\
        <p><b>Bitte beachten Sie</b> die Hinweise unten.</p><p><b>Wichtig:</b> Rücksendungen sind frei.</p>\
        <p>Die Ware bleibt <strong>bis zur vollständigen Bezahlung</strong> unser Eigentum.</p></div>";
    let s = tree(html, &[]);
    assert_eq!(outline(&s), "<>");
    assert_eq!(s[0].paragraphs.len(), 4);
}

#[test]
fn text_after_a_list_stays_with_its_section() {
    let html = format!(
        "<div><h2>Zahlung</h2><p>Wir bieten folgende Zahlungsarten an:</p><ul><li>Vorkasse</li><li>PayPal<ul><li>mit Konto</li></ul></li><li>Rechnung</li></ul>\
         <p>Bei Vorkasse liefern wir nach Zahlungseingang.</p><h2>Lieferung</h2><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(outline(&s), "Zahlung [<>, <> [<>], <>, <>], Lieferung");
    let z = &s[0];
    assert_eq!(z.paragraphs, ["Wir bieten folgende Zahlungsarten an:"]);
    assert_eq!(z.subsections[1].paragraphs, ["PayPal"]);
    assert_eq!(z.subsections[1].subsections[0].paragraphs, ["mit Konto"]);
    assert_eq!(
        z.subsections[3].paragraphs,
        ["Bei Vorkasse liefern wir nach Zahlungseingang."]
    );
    assert_eq!(s[1].paragraphs, [VERTRAG]);
}

#[test]
fn heading_tags_holding_paragraphs_are_not_headings() {
    let long = "Mit der Nutzung dieser Website erklären Sie sich mit den folgenden Bedingungen einverstanden, die wir jederzeit ohne vorherige Ankündigung ändern können, soweit dies für Sie zumutbar ist und Ihre Rechte nicht beeinträchtigt werden.";
    let html = format!(
        "<div><h1>AGB</h1><h4>{long}</h4><h2>1. Geltung</h2><p>{VERTRAG}</p><h2>2. Preise</h2><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(outline(&s), "AGB [1. Geltung, 2. Preise]");
    assert_eq!(s[0].paragraphs, [long]);
}

#[test]
fn link_only_lines_are_not_headings() {
    let html = format!(
        "<div><p><b>Geltung</b></p><p>{VERTRAG}</p><p><a href=agb.pdf>AGB als PDF herunterladen</a></p>\
         <p><b>Preise</b></p><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(outline(&s), "Geltung, Preise");
    assert_eq!(s[0].paragraphs[1], "AGB als PDF herunterladen");
}

#[test]
fn several_documents_on_one_page_are_siblings() {
    let html = format!(
        "<div><h1>Allgemeine Geschäftsbedingungen</h1><h3>§ 1 Geltung</h3><p>{VERTRAG}</p><h3>§ 2 Preise</h3><p>{VERTRAG}</p>\
         <h3>Kundeninformationen</h3><p>{VERTRAG}</p><h2>Widerrufsbelehrung</h2><h3>Widerrufsrecht</h3><p>{VERTRAG}</p>\
         <h3>Folgen des Widerrufs</h3><p>{VERTRAG}</p><h3>Muster-Widerrufsformular</h3><p>{VERTRAG}</p>\
         <p>Datenschutzerklärung</p><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "Allgemeine Geschäftsbedingungen [§ 1 Geltung, § 2 Preise], Kundeninformationen, \
         Widerrufsbelehrung [Widerrufsrecht, Folgen des Widerrufs], Muster-Widerrufsformular, Datenschutzerklärung"
    );
}

/// Minimal CSV reader (RFC 4180 quoting) for the clause corpus.
fn csv_records(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, '\r') => {}
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

#[test]
fn enumeration_detector_on_real_german_agb_titles() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/raw/agb-de-clauses/agb-de-anonym.csv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} is absent", path.display());
        return;
    };
    let records = csv_records(&text);
    let header = &records[0];
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (contract, title) = (col("contract"), col("title"));
    let number = regex::Regex::new(r"^(§\s*)?(\d{1,3}(?:\.\d{1,3})*)\.?(?:\s|$)").unwrap();
    let (mut checked, mut numbered, mut pairs, mut successors) = (0, 0, 0, 0);
    let mut prev: Option<(String, enumeration::Enumeration)> = None;
    let mut last_title = String::new();
    for r in &records[1..] {
        let (Some(c), Some(t)) = (r.get(contract), r.get(title)) else {
            continue;
        };
        let t = t.trim();
        if t.is_empty() || t == last_title {
            continue; // several clauses share one title
        }
        last_title = t.to_owned();
        checked += 1;
        let found = enumeration::detect(t);
        if let Some(m) = number.captures(t) {
            let values: Vec<u32> = m[2].split('.').map(|v| v.parse().unwrap()).collect();
            let e = found
                .clone()
                .unwrap_or_else(|| panic!("no enumeration in {t:?}"));
            assert_eq!(e.values, values, "{t:?}");
            assert_eq!(e.kind, NumberKind::Arabic, "{t:?}");
            if m.get(1).is_some() {
                assert_eq!(e.decoration, Decoration::Section, "{t:?}");
            }
        }
        if let Some(e) = found {
            numbered += 1;
            if let Some((pc, pe)) = &prev
                && pc == c
                && pe.class() == e.class()
            {
                pairs += 1;
                successors += usize::from(e.is_successor_of(pe));
            }
            prev = Some((c.clone(), e));
        }
    }
    assert!(checked > 500, "{checked} titles");
    assert!(
        numbered * 2 > checked,
        "{numbered} of {checked} titles numbered"
    );
    // Consecutive titles of one class in one contract mostly follow each other.
    assert!(
        successors * 10 >= pairs * 8,
        "{successors} successors of {pairs} pairs"
    );
}
