use super::*;

fn toks(s: &str) -> Vec<String> {
    tokens(s)
}

fn node(title: &str, children: Vec<HeadingNode>) -> HeadingNode {
    HeadingNode {
        title: title.into(),
        text: None,
        children,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn tokens_are_lowercased_alphanumeric_runs() {
    assert_eq!(
        toks("Die AGB's (§ 3) gelten ab 1.1.2024 — Über\u{ad}all!"),
        [
            "die", "agb", "s", "3", "gelten", "ab", "1", "1", "2024", "überall"
        ]
    );
    assert!(toks("  ... — ").is_empty());
}

#[test]
fn token_prf_counts_bags() {
    let p = token_prf("a a b c", "a b b d");
    // matched: a, b = 2 of 4 extracted, 2 of 4 gold
    assert!(close(p.precision, 0.5) && close(p.recall, 0.5) && close(p.f1, 0.5));
    let p = token_prf("A b", "a B");
    assert_eq!(p.f1, 1.0);
    let p = token_prf("", "a b");
    assert_eq!((p.precision, p.recall, p.f1), (0.0, 0.0, 0.0));
    let p = token_prf("", "");
    assert_eq!(p.f1, 1.0);
    let p = token_prf("a b c d", "a b");
    assert!(close(p.precision, 0.5) && close(p.recall, 1.0));
    assert!(close(p.f1, 2.0 / 3.0));
}

const GOLD: &str = "one two three four five six seven eight nine ten eleven twelve \
                    thirteen fourteen fifteen sixteen seventeen eighteen";

fn start(extracted: &str) -> Edge {
    let g = toks(GOLD);
    start_class(&toks(extracted), opening(&g))
}

fn end(extracted: &str) -> Edge {
    let g = toks(GOLD);
    end_class(&toks(extracted), closing(&g))
}

#[test]
fn start_exact_and_with_slack() {
    assert_eq!(start(GOLD), Edge::Correct);
    assert_eq!(
        start(&format!("x1 x2 x3 x4 x5 x6 x7 x8 {GOLD}")),
        Edge::Correct
    );
    assert_eq!(
        start(&format!("x1 x2 x3 x4 x5 x6 x7 x8 x9 {GOLD}")),
        Edge::TooEarly
    );
}

#[test]
fn start_missing_opening_is_too_late() {
    // the first gold token is cut off
    assert_eq!(
        start("two three four five six seven eight nine ten"),
        Edge::TooLate
    );
    assert_eq!(start(""), Edge::TooLate);
    assert_eq!(start("completely different text"), Edge::TooLate);
}

#[test]
fn start_uses_first_occurrence() {
    // The opening appears twice: once early (correct position) and once later.
    let ext = format!("{GOLD} {GOLD}");
    assert_eq!(start(&ext), Edge::Correct);
    // Opening only after 9 tokens of navigation that repeat part of it.
    let ext = format!("one two three nav nav nav nav nav nav {GOLD}");
    assert_eq!(start(&ext), Edge::TooEarly);
}

#[test]
fn end_exact_slack_and_mirror_classes() {
    assert_eq!(end(GOLD), Edge::Correct);
    assert_eq!(
        end(&format!("{GOLD} y1 y2 y3 y4 y5 y6 y7 y8")),
        Edge::Correct
    );
    assert_eq!(
        end(&format!("{GOLD} y1 y2 y3 y4 y5 y6 y7 y8 y9")),
        Edge::TooLate
    );
    // last gold token missing: the extraction ended too early
    assert_eq!(
        end(
            "one two three four five six seven eight nine ten eleven twelve thirteen \
             fourteen fifteen sixteen seventeen"
        ),
        Edge::TooEarly
    );
    // last occurrence counts: closing repeated in a footer 9+ tokens later is too late
    assert_eq!(
        end(&format!(
            "{GOLD} f1 f2 f3 f4 f5 f6 f7 f8 f9 eleven twelve thirteen fourteen fifteen \
             sixteen seventeen eighteen"
        )),
        Edge::Correct
    );
}

#[test]
fn short_gold_uses_all_its_tokens() {
    let g = toks("only three words");
    assert_eq!(opening(&g).len(), 3);
    assert_eq!(
        start_class(&toks("only three words"), opening(&g)),
        Edge::Correct
    );
    assert_eq!(
        end_class(&toks("only three words"), closing(&g)),
        Edge::Correct
    );
    assert_eq!(start_class(&toks("only three"), opening(&g)), Edge::TooLate);
    assert_eq!(end_class(&toks("only three"), closing(&g)), Edge::TooEarly);
    // empty gold cannot be checked
    assert_eq!(start_class(&toks("x"), &[]), Edge::Correct);
}

#[test]
fn extraction_shorter_than_opening() {
    let g = toks(GOLD);
    assert_eq!(start_class(&toks("one two"), opening(&g)), Edge::TooLate);
    assert_eq!(end_class(&toks("eighteen"), closing(&g)), Edge::TooEarly);
}

#[test]
fn normalize_folds_case_space_and_trailing_punctuation() {
    assert_eq!(
        normalize_title("  1.  Geltungs\u{a0}Bereich: "),
        "1. geltungs bereich"
    );
    assert_eq!(normalize_title("Widerrufsrecht…"), "widerrufsrecht");
    assert_eq!(normalize_title("FAQ?!"), "faq");
    assert_eq!(normalize_title(""), "");
}

#[test]
fn numbering_is_stripped_for_the_key() {
    assert_eq!(heading_key("§ 1 Geltungsbereich"), "geltungsbereich");
    assert_eq!(heading_key("§1. Geltungsbereich"), "geltungsbereich");
    assert_eq!(heading_key("1. Geltungsbereich"), "geltungsbereich");
    assert_eq!(heading_key("1.2.3 Lieferung"), "lieferung");
    assert_eq!(heading_key("12) Lieferung"), "lieferung");
    assert_eq!(heading_key("(1) Lieferung"), "lieferung");
    assert_eq!(heading_key("IV. Gewährleistung"), "gewährleistung");
    assert_eq!(heading_key("a) Art und Umfang"), "art und umfang");
    assert_eq!(heading_key("Art. 3 – Haftung"), "haftung");
    assert_eq!(heading_key("Section 4: Privacy"), "privacy");
    assert_eq!(heading_key("Artikel 2"), "artikel 2");
    // not numbering
    assert_eq!(heading_key("2024 Update"), "2024 update");
    assert_eq!(heading_key("Impressum"), "impressum");
    assert_eq!(heading_key("Art und Umfang"), "art und umfang");
    assert_eq!(heading_key("I am a title"), "i am a title");
    assert_eq!(heading_key("§ 5"), "§ 5");
}

#[test]
fn perfect_tree_scores_zero() {
    let t = vec![
        node("Title", vec![node("1. A", vec![]), node("2. B", vec![])]),
        node("Anhang", vec![]),
    ];
    let s = hierarchy_score(&t, &t);
    assert_eq!(s.matched, 4);
    assert_eq!(s.prf.f1, 1.0);
    assert_eq!(s.parent_accuracy, Some(1.0));
    assert_eq!(s.error_score, 0.0);
}

#[test]
fn wrong_parent_and_title_penalties() {
    let gold = vec![node(
        "Title",
        vec![node("1. A", vec![]), node("2. B", vec![])],
    )];
    // B flattened to top level and written without its number
    let ext = vec![node("Title", vec![node("1. A", vec![])]), node("B", vec![])];
    let s = hierarchy_score(&ext, &gold);
    assert_eq!(s.matched, 3);
    assert!(close(s.parent_accuracy.unwrap(), 2.0 / 3.0));
    // Title: content wrong (B no longer below it) 0.5; A: 0; B: parent 0.4 + title 0.1
    assert_eq!(s.section_errors, vec![0.5, 0.0, 0.5]);
    assert!(close(s.error_score, 1.0 / 3.0));
}

#[test]
fn unmatched_sections_score_one_and_count_for_precision() {
    let gold = vec![node("A", vec![]), node("B", vec![])];
    let ext = vec![node("A", vec![]), node("Cookie settings", vec![])];
    let s = hierarchy_score(&ext, &gold);
    assert_eq!(s.section_errors, vec![0.0, 1.0]);
    assert!(close(s.prf.precision, 0.5) && close(s.prf.recall, 0.5));
    assert!(close(s.error_score, 0.5));
}

#[test]
fn empty_trees() {
    let gold = vec![node("A", vec![])];
    let s = hierarchy_score(&[], &gold);
    assert_eq!(s.error_score, 1.0);
    assert_eq!(s.prf.f1, 0.0);
    assert_eq!(s.parent_accuracy, None);
    let s = hierarchy_score(&[], &[]);
    assert_eq!(s.error_score, 0.0);
}

#[test]
fn matching_is_one_to_one_and_order_preserving() {
    // Two "Allgemeines" headings in the gold; the extraction has one extra in a nav.
    let gold = vec![
        node("1. Allgemeines", vec![]),
        node("2. Preise", vec![]),
        node("3. Allgemeines", vec![]),
    ];
    let ext = vec![
        node("Allgemeines", vec![]),
        node("2. Preise", vec![]),
        node("3. Allgemeines", vec![]),
        node("Allgemeines", vec![]),
    ];
    let s = hierarchy_score(&ext, &gold);
    assert_eq!(s.matches, vec![Some(0), Some(1), Some(2), None]);
    // moved section still matched by the greedy pass
    let ext = vec![node("2. Preise", vec![]), node("1. Allgemeines", vec![])];
    let s = hierarchy_score(&ext, &gold);
    assert_eq!(s.matched, 2);
}

#[test]
fn content_uses_text_when_both_sides_have_it() {
    let mut g = node("A", vec![]);
    g.text = Some("alpha beta gamma delta".into());
    let mut e = node("A", vec![]);
    e.text = Some("alpha beta gamma delta".into());
    assert_eq!(hierarchy_score(&[e.clone()], &[g.clone()]).error_score, 0.0);
    e.text = Some("alpha".into());
    assert_eq!(hierarchy_score(&[e.clone()], &[g.clone()]).error_score, 0.5);
    e.text = None;
    assert_eq!(hierarchy_score(&[e], &[g]).error_score, 0.0);
}

#[test]
fn buckets() {
    assert_eq!(bucket(0.0), 0);
    assert_eq!(bucket(1e-12), 0);
    assert_eq!(bucket(0.01), 1);
    assert_eq!(bucket(0.05), 1);
    assert_eq!(bucket(0.1 + 0.4 - 0.45), 1); // 0.05 with rounding noise
    assert_eq!(bucket(0.0500001), 2);
    assert_eq!(bucket(0.1), 2);
    assert_eq!(bucket(0.15), 3);
    assert_eq!(bucket(1.0), 6);
    assert_eq!(bucket(2.0), 6);
    assert_eq!(bucket_labels().len(), 7);
    assert_eq!(histogram([0.0, 0.0, 0.04, 1.0]), vec![2, 1, 0, 0, 0, 0, 1]);
}
