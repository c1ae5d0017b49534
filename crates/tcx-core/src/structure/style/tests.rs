use super::*;
use crate::AnalysisOptions;
use crate::parse::tree::NodeKind;

fn styles(html: &str, sheets: &[&str]) -> (ReducedTree, ComputedStyles) {
    let tree = ReducedTree::build(
        html,
        std::slice::from_ref(&(0..html.len())),
        &AnalysisOptions::default(),
    )
    .unwrap();
    let sheets: Vec<String> = sheets.iter().map(|s| s.to_string()).collect();
    let cs = ComputedStyles::compute(&tree, &sheets);
    (tree, cs)
}

/// Style of the first text node containing `needle`.
fn text_style(html: &str, sheets: &[&str], needle: &str) -> Style {
    let (tree, cs) = styles(html, sheets);
    let id = tree
        .nodes
        .iter()
        .position(|n| matches!(&n.kind, NodeKind::Text(t) if t.contains(needle)))
        .unwrap();
    cs.get(id as NodeId)
}

#[test]
fn ua_sheet() {
    let h = "<div><h1>a</h1><h2>b</h2><h3>c</h3><h5>e</h5><h6>f</h6><p>p <b>bold</b> <i>it</i> <u>un</u> <small>sm</small> <a href=x>ln</a></p><table><tr><th>th</th></tr></table></div>";
    assert_eq!(text_style(h, &[], "a").size, 32.0);
    assert_eq!(text_style(h, &[], "b").size, 24.0);
    assert!((text_style(h, &[], "c").size - 18.72).abs() < 0.01);
    assert!((text_style(h, &[], "e").size - 13.28).abs() < 0.01);
    assert!((text_style(h, &[], "f").size - 10.72).abs() < 0.01);
    assert_eq!(text_style(h, &[], "f").weight, 700);
    assert_eq!(text_style(h, &[], "p ").weight, 400);
    assert_eq!(text_style(h, &[], "bold").weight, 700);
    assert!(text_style(h, &[], "it").italic);
    assert!(text_style(h, &[], "un").underline);
    assert!(text_style(h, &[], "sm").size < 16.0);
    assert!(text_style(h, &[], "ln").underline);
    assert_eq!(text_style(h, &[], "th").weight, 700);
}

#[test]
fn inline_styles_inherit_and_resolve() {
    let h = r#"<div style="font-size: 10.5pt; color: red; font-style: italic; font-weight: normal; text-decoration: underline"><span>x</span><p style="font-size:200%">y</p><p style="font-size:1.5em"><b style="font-size:larger">z</b></p><p style="font-weight:bold">w</p><p style="font:italic bold 12px Georgia, serif">v</p></div>"#;
    let x = text_style(h, &[], "x");
    assert_eq!(
        (x.size, x.color, x.italic, x.weight, x.underline),
        (14.0, 0xff0000, true, 400, true)
    );
    assert_eq!(text_style(h, &[], "y").size, 28.0);
    assert!((text_style(h, &[], "z").size - 25.2).abs() < 0.01);
    assert_eq!(text_style(h, &[], "w").weight, 700);
    let (tree, cs) = styles(h, &[]);
    let v = tree
        .nodes
        .iter()
        .position(|n| matches!(&n.kind, NodeKind::Text(t) if t == "v"))
        .unwrap();
    let v = cs.get(v as NodeId);
    assert_eq!((v.size, v.weight, v.italic), (12.0, 700, true));
    assert_eq!(cs.families[v.family as usize], "georgia");
}

#[test]
fn font_element_and_keywords() {
    let h = r##"<font color="#ff0000" size="7"><i><b><u>Dummy</u></b></i></font><p style="font-size: x-large">k</p>"##;
    let s = text_style(h, &[], "Dummy");
    assert_eq!(
        (s.size, s.color, s.italic, s.weight, s.underline),
        (48.0, 0xff0000, true, 700, true)
    );
    assert_eq!(text_style(h, &[], "k").size, 24.0);
}

#[test]
fn stylesheet_selectors_and_specificity() {
    let css = ".section-title { font-weight: bold; font-size: 1.25em } #main p.note { font-style: italic } div > span.x { color: #00f } p { font-size: 14px } .agb p { font-size: 15px } @media print { p { font-size: 40px } } a:hover { font-size: 99px } h2 { font-weight: normal !important }";
    let h = r##"<div id="main" class="agb"><div class="section-title">§ 1 Titel</div><p class="note">note</p><p>plain</p><div><span class="x">blue</span></div><h2 style="font-weight:bold">h2</h2><a href="#">link</a></div>"##;
    let t = text_style(h, &[css], "Titel");
    assert_eq!((t.weight, t.size), (700, 20.0));
    assert!(text_style(h, &[css], "note").italic);
    assert_eq!(text_style(h, &[css], "plain").size, 15.0);
    assert_eq!(text_style(h, &[css], "blue").color, 0x0000ff);
    assert_eq!(text_style(h, &[css], "h2").weight, 400);
    assert_eq!(text_style(h, &[css], "link").size, 16.0);
}

#[test]
fn virtual_ancestors_and_broken_css() {
    let css = "body .c { font-weight: 700 } html body div.d { font-size: 20px } }}} {{ p { color: ; } .e::before { content: 'x' }";
    let h = r#"<div class="c">c</div><div class="d">d</div>"#;
    assert_eq!(text_style(h, &[css], "c").weight, 700);
    assert_eq!(text_style(h, &[css], "d").size, 20.0);
}

#[test]
fn enclosing_elements_match_selectors_and_pass_their_style_down() {
    use crate::parse::tree::AncestorElement;
    let html = r#"<h2>Titel</h2><p>text</p>"#;
    let mut tree = ReducedTree::build(
        html,
        std::slice::from_ref(&(0..html.len())),
        &AnalysisOptions::default(),
    )
    .unwrap();
    let el = |tag: &str, attrs: &[(&str, &str)]| AncestorElement {
        tag: tag.to_owned(),
        attributes: attrs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
    };
    tree.ancestors = vec![
        el("html", &[]),
        el("body", &[("style", "font-size: 10.5pt; color: red")]),
        el("div", &[("class", "page content"), ("id", "main")]),
    ];
    let css = [
        ".content h2 { font-weight: normal }".to_owned(),
        "#main > h2 { font-style: italic }".to_owned(),
        ".other h2 { font-size: 50px }".to_owned(),
        "body div.page p { text-decoration: underline }".to_owned(),
    ];
    let cs = ComputedStyles::compute(&tree, &css);
    let h2 = cs.get(2);
    assert_eq!((h2.weight, h2.italic, h2.size), (400, true, 21.0));
    assert_eq!(h2.color, 0xff0000);
    let p = cs.get(4);
    assert_eq!((p.size, p.underline), (14.0, true));
    assert_eq!(cs.get(0).size, 14.0);
}

#[test]
fn rule_splitting_skips_at_rules_and_irrelevant_rules() {
    let css = "/* a { font-size: 9px } */ @import url(x.css); @media (min-width: 1px) { p { font-size: 40px } } a { margin: 0 } b { content: '}'; font-weight: 300 } @font-face { font-family: x } .c{color:red}";
    assert_eq!(
        relevant_rules(css),
        [" b { content: '}'; font-weight: 300 }", " .c{color:red}"]
    );
    // Inside a block: a quote in a comment, an escaped quote, slashes of an address.
    let css = r#"d { background: url(/a/b.png); /* it's } */ color: blue } e { content: "a\"}"; font-size: 2px } f { margin: '/*' }"#;
    assert_eq!(
        relevant_rules(css),
        [
            "d { background: url(/a/b.png); /* it's } */ color: blue }",
            r#" e { content: "a\"}"; font-size: 2px }"#
        ]
    );
}

#[test]
fn deep_trees_compute_iteratively() {
    let html = format!("{}deep{}", "<div>".repeat(20_000), "</div>".repeat(20_000));
    let s = text_style(&html, &["div div div { font-weight: bold }"], "deep");
    assert_eq!(s.weight, 700);
}

#[test]
fn prominence() {
    let body = Style::default();
    let bold = Style {
        weight: 700,
        ..body
    };
    let big = Style { size: 20.0, ..body };
    let red = Style {
        color: 0xff0000,
        ..body
    };
    assert!(bold.more_prominent_than(&body));
    assert!(big.more_prominent_than(&body));
    assert!(!red.more_prominent_than(&body));
    assert!(!body.more_prominent_than(&bold));
}

#[test]
fn rules_for_names_absent_from_the_tree_are_skipped_unparsed() {
    let mut present = SelectorKeys::default();
    present.add("div", Some("content legal"), Some("main"));
    present.add("p", None, None);
    let keeps = |rule: &str| present.may_match_rule(rule);
    // Each compound's tag, classes and id must all occur.
    assert!(!keeps(".sidebar .content p { color: red }"));
    assert!(keeps(".legal .content p { color: red }"));
    assert!(keeps("DIV.legal { color: red }"));
    assert!(keeps("#main > div { color: red }"));
    assert!(keeps("p:first-child, .nav { color: red }"));
    assert!(!keeps(".content .nav-item { color: red }"));
    assert!(!keeps("div.content.hero, span, #footer { color: red }"));
    assert!(!keeps(".content > h2 { color: red }"));
    // Unsure cases are kept: attributes, functions, escapes, comments, universal.
    assert!(keeps("[class^=nav] { color: red }"));
    assert!(keeps(":not(.x) { color: red }"));
    assert!(keeps(".md\\:nav { color: red }"));
    assert!(keeps("/* c */ .nav { color: red }"));
    assert!(keeps("* { color: red }"));
    // And the cascade of a page built from them is unchanged.
    let html = "<div class=\"content\"><p>Text</p></div>";
    let sheets = [".nav p, .content p { font-weight: bold } .hero p { font-size: 40px }"];
    let s = text_style(html, &sheets, "Text");
    assert_eq!((s.weight, s.size), (700, 16.0));
}

#[test]
fn ancestor_filter_needs_the_names_above_the_subject() {
    let mut above = AncestorFilter::default();
    above.add_element("div", Some("content main"), Some("page"));
    above.add_element("section", None, None);
    for (selector, possible) in [
        (".content p", true),
        ("#page > section p", true),
        ("div.main .x + p", true), // `.x` is a sibling, not an ancestor
        (".nav p", false),
        ("footer .content p", false),
        ("p", true),
    ] {
        let needed = AncestorFilter::required_by(selector);
        assert_eq!(above.contains(&needed), possible, "{selector}");
    }
    let s = text_style(
        "<div class=\"content\"><section><p>Text</p></section></div>",
        &[".content section p { font-weight: bold } .nav p { font-size: 40px }"],
        "Text",
    );
    assert_eq!((s.weight, s.size), (700, 16.0));
}

/// The byte-at-a-time reading [`relevant_rules`] replaced (its memchr jumps must find the
/// same rules).
fn relevant_rules_by_bytes(css: &str) -> Vec<&str> {
    let b = css.as_bytes();
    let (mut out, mut i, mut start, mut depth, mut at_rule, mut block_start) =
        (Vec::new(), 0, 0, 0usize, false, 0);
    while i < b.len() {
        let special: &[u8] = if depth == 0 { b"/\"'@;{}" } else { b"/\"'{}" };
        if !special.contains(&b[i]) {
            i += 1;
            continue;
        }
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = css[i + 2..].find("*/").map_or(b.len(), |p| i + 2 + p + 2);
                continue;
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'@' if depth == 0 && !at_rule && cascade::only_space_and_comments(&css[start..i]) => {
                at_rule = true
            }
            b';' if depth == 0 && at_rule => {
                at_rule = false;
                start = i + 1;
            }
            b'{' => {
                if depth == 0 {
                    block_start = i;
                }
                depth += 1;
            }
            b'}' => {
                if depth == 1 {
                    let decls = &css[block_start..i];
                    if !at_rule
                        && ["font", "decoration", "color"]
                            .iter()
                            .any(|w| decls.contains(w))
                    {
                        out.push(&css[start..=i]);
                    }
                    at_rule = false;
                    start = i + 1;
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        i += 1;
    }
    out
}

proptest::proptest! {
    // Enough cases to meet a comment or a quote inside a block with a brace in it.
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
    #[test]
    fn sheets_are_split_as_byte_at_a_time(
        pieces in proptest::collection::vec(
            "( |p|a b|\\.c|#d|@media x|@import y|\\{|\\}|;|color:red|font-size:2px|margin:0|'|\"|\\\\|/\\*|\\*/|/|url\\(/x\\.png\\)|\n)",
            0..40,
        )
    ) {
        let css = pieces.concat();
        proptest::prop_assert_eq!(relevant_rules(&css), relevant_rules_by_bytes(&css));
    }
}

#[test]
fn rules_keep_only_the_declarations_the_cascade_reads() {
    use cascade::reduce_rule;
    // A custom property before the size no longer hides it (simplecss stopped at `--gap`).
    assert_eq!(
        reduce_rule("h2, .title { --gap: 1rem; font-size: 2em; margin: 0 }").as_deref(),
        Some("h2, .title { font-size: 2em}")
    );
    // Strings, parentheses and comments do not split declarations.
    assert_eq!(
        reduce_rule("a[title=\"x;y\"] { background: url(a;b.png); /* c; d */ color: red !important; FONT-WEIGHT: bold }").as_deref(),
        Some("a[title=\"x;y\"] { /* c; d */ color: red !important; FONT-WEIGHT: bold }")
    );
    // A colon in a comment does not hide the declaration after it.
    assert_eq!(
        reduce_rule("h2 { /* Typography: sizes */ font-size: 2em }").as_deref(),
        Some("h2 { /* Typography: sizes */ font-size: 2em }")
    );
    // An IE hack is no property; a rule without one the cascade reads is dropped.
    assert_eq!(reduce_rule(".x { *font-size: 20px; zoom: 1 }"), None);
    assert_eq!(reduce_rule("p { margin: 0 }"), None);
    // Through the cascade: the heading's size is applied.
    let style = text_style(
        "<div><h2 class=t>Title</h2><p>Text here.</p></div>",
        &[".t { --accent: #c00; font-size: 40px }"],
        "Title",
    );
    assert_eq!(style.size, 40.0);
}

#[test]
fn class_names_that_name_a_title() {
    for class in [
        "title",
        "section-title",
        "headline__title",
        "card sectionTitle",
        "subheading",
    ] {
        assert!(names_a_title(class), "{class}");
    }
    for class in [
        "title-wrapper",
        "untitled-box",
        "header",
        "entry-content",
        "subtitle-bar",
        "no-title",
        "page has-title",
    ] {
        assert!(!names_a_title(class), "{class}");
    }
}

#[test]
fn sizes_within_a_pixel_of_their_tiers_largest_share_a_tier() {
    assert_eq!(size_tiers(&[18.0, 18.72, 24.0, 16.0]), [1, 1, 0, 2]);
    // Tiers do not chain: each is measured from its own largest size.
    assert_eq!(size_tiers(&[20.0, 19.2, 18.4, 17.6]), [0, 0, 1, 1]);
    assert_eq!(size_tiers(&[]), Vec::<usize>::new());
}
