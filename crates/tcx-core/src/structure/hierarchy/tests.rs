use super::*;
use crate::{AnalysisOptions, parse::tree::ReducedTree, structure::blocks::blocks};

fn tree(html: &str) -> Vec<Section> {
    let t = ReducedTree::build(
        html,
        std::slice::from_ref(&(0..html.len())),
        &AnalysisOptions::default(),
    )
    .unwrap();
    sections(&blocks(&t))
}

/// `title|number [children]` outline for compact assertions.
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

#[test]
fn heading_tags_nest_by_level() {
    let s = tree(
        "<h3>Terms</h3><h5>1. Lorem</h5><p>a</p><h6>1.1 Donec</h6><p>b</p><h6>1.2 In</h6><p>c</p><h5>2. Aenean</h5><p>d</p>",
    );
    assert_eq!(
        outline(&s),
        "Terms [1. Lorem [1.1 Donec, 1.2 In], 2. Aenean]"
    );
    assert_eq!(s[0].subsections[0].number.as_deref(), Some("1."));
    assert_eq!(s[0].subsections[0].subsections[1].level, 3);
    assert_eq!(s[0].subsections[0].paragraphs, ["a"]);
}

#[test]
fn numbered_paragraphs_build_sections() {
    let s = tree(
        "<p>Intro text</p><p>§ 1 Geltungsbereich</p><p>(1) Diese Bedingungen gelten für alle Verträge zwischen uns und dem Kunden hier.</p>\
         <p>(2) Abweichende Bedingungen des Kunden gelten nicht, es sei denn wir stimmen zu.</p>\
         <p>§ 2 Vertragsschluss</p><p>Der Vertrag kommt zustande.</p>",
    );
    assert_eq!(outline(&s), "<>, § 1 Geltungsbereich, § 2 Vertragsschluss");
    assert_eq!(s[0].title, None);
    assert_eq!(s[0].paragraphs, ["Intro text"]);
    assert!(s[1].paragraphs[0].starts_with("(1) Diese"));
    assert!(s[1].paragraphs[1].starts_with("(2) Abweichende"));
    assert_eq!(s[2].paragraphs, ["Der Vertrag kommt zustande."]);
}

#[test]
fn multi_level_numbers_and_single_numbers() {
    let s = tree(
        "<p>1. Allgemeines</p><p>1.1 Geltung</p><p>x</p><p>1.2 Änderungen</p><p>2. Preise</p><p>y</p><p>3 Werktage beträgt die Lieferzeit</p>",
    );
    assert_eq!(
        outline(&s),
        "1. Allgemeines [1.1 Geltung, 1.2 Änderungen], 2. Preise"
    );
    assert_eq!(s[1].paragraphs, ["y", "3 Werktage beträgt die Lieferzeit"]);
}

#[test]
fn roman_and_letters() {
    let s = tree(
        "<p>I. Allgemeine Geschäftsbedingungen</p><p>a) Eins</p><p>b) Zwei</p><p>II. Kundeninformationen</p><p>text</p>",
    );
    assert_eq!(
        outline(&s),
        "I. Allgemeine Geschäftsbedingungen [a) Eins, b) Zwei], II. Kundeninformationen"
    );
    // Lettered lines that start in lower case are pieces of a sentence, not titles.
    let s = tree(
        "<p>I. Allgemeine Geschäftsbedingungen</p><p>a) eins</p><p>b) zwei</p><p>II. Kundeninformationen</p><p>text</p>",
    );
    assert_eq!(
        outline(&s),
        "I. Allgemeine Geschäftsbedingungen, II. Kundeninformationen"
    );
    let s = tree("<p>h) Acht</p><p>i) Neun</p><p>j) Zehn</p>");
    assert_eq!(s.len(), 3);
    let s = tree("<p>(i) One</p><p>(ii) Two</p>");
    assert_eq!(outline(&s), "(i) One, (ii) Two");
}

#[test]
fn lone_numbers_are_text() {
    let s = tree("<p>1. Nur eine Zahl</p><p>text</p>");
    assert_eq!(outline(&s), "<>");
    assert_eq!(s[0].paragraphs.len(), 2);
}
