use super::*;

fn titles(nodes: &[HeadingNode]) -> Vec<String> {
    nodes
        .iter()
        .map(|n| {
            if n.children.is_empty() {
                n.title.clone()
            } else {
                format!("{}[{}]", n.title, titles(&n.children).join(", "))
            }
        })
        .collect()
}

#[test]
fn headings_inside_list_items_are_headings() {
    let (_, tree) =
        parse_markdown("# Terms\n\n1.  ### ELECTRONIC RECORDS\n\nText.\n\n2.  ### FEES\n");
    assert_eq!(tree.len(), 1);
    let titles: Vec<&str> = tree[0].children.iter().map(|h| h.title.as_str()).collect();
    assert_eq!(titles, ["ELECTRONIC RECORDS", "FEES"]);
}

#[test]
fn atx_and_setext_headings_make_a_tree() {
    let md = "Nutzungsbedingungen\n===================\n\nIntro text.\n\n\
              ### 1\\. Gegenstand\n\n1.1. Text one.\n\n#### Detail ####\n\nmore\n\n\
              Zweiter Teil\n------------\n\nbody\n\n---\n\n# Anhang\n";
    let (text, tree) = parse_markdown(md);
    assert_eq!(
        titles(&tree),
        [
            "Nutzungsbedingungen[1. Gegenstand[Detail], Zweiter Teil]",
            "Anhang"
        ]
    );
    assert_eq!(
        text,
        "Nutzungsbedingungen\nIntro text.\n1. Gegenstand\n1.1. Text one.\nDetail\nmore\n\
         Zweiter Teil\nbody\nAnhang"
    );
    let root = &tree[0];
    assert_eq!(
        root.text.as_deref(),
        Some("Intro text.\n1. Gegenstand\n1.1. Text one.\nDetail\nmore\nZweiter Teil\nbody")
    );
}

#[test]
fn thematic_break_after_blank_is_not_a_heading() {
    let (text, tree) = parse_markdown("Para\n\n---\n\nNext\n* * *\n");
    assert!(tree.is_empty());
    assert_eq!(text, "Para\nNext");
}

#[test]
fn inline_syntax_is_removed() {
    assert_eq!(
        clean_inline("**Bold** and _it_ with [a link](https://x.y/(z)) and ![img](i.png)"),
        "Bold and it with a link and "
    );
    assert_eq!(clean_inline("a\\_b \\*c\\* 1\\. \\[x\\]"), "a_b *c* 1. [x]");
    assert_eq!(clean_inline("x<br>y</span> &amp; z"), "x\ny  & z");
    assert_eq!(
        clean_inline("mail <info@x.de> or <https://x.de>"),
        "mail info@x.de or https://x.de"
    );
    assert_eq!(
        clean_inline("[ref link][1] and [x] alone"),
        "ref link and [x] alone"
    );
    assert_eq!(clean_inline("`code` ~~gone~~"), "code gone");
    assert_eq!(clean_inline("a < b and c > d"), "a < b and c > d");
}

#[test]
fn lists_tables_and_fences() {
    let md = "*   one\n    *   nested\n1. first\n2) second\n> quoted\n\n\
              | A | B |\n| --- | --- |\n| x<br><br>*   y | z \\| w |\n\n```\ncode line\n```\n\
              [1]: https://example.com\n";
    let (text, _) = parse_markdown(md);
    assert_eq!(
        text,
        "one\nnested\nfirst\nsecond\nquoted\nA\nB\nx\ny\nz | w\ncode line"
    );
}

#[test]
fn list_line_before_dashes_is_not_setext() {
    let (_, tree) = parse_markdown("*   item\n---\n");
    assert!(tree.is_empty());
    let (_, tree) = parse_markdown("| a |\n| --- |\n");
    assert!(tree.is_empty());
}

#[test]
fn manifest_parses_rows_and_references() {
    let m = "html\tgold\tlang\tgold_kind\n\
             raw/ota/de/X.html\traw/ota/de/X.gt.md\tde\tmarkdown\n\
             \n\
             raw/sh/html/ab.html.gz\traw/sh/ground-truth.json#ab\ten\ttext\n";
    let e = parse_manifest(m, Path::new("/c")).unwrap();
    assert_eq!(e.len(), 2);
    assert_eq!(e[0].id, "de/X");
    assert_eq!(e[0].group, "ota");
    assert_eq!(e[0].html, Path::new("/c/raw/ota/de/X.html"));
    assert_eq!(e[1].gold_key.as_deref(), Some("ab"));
    assert_eq!(e[1].gold, Path::new("/c/raw/sh/ground-truth.json"));
    assert_eq!(e[1].kind, GoldKind::Text);
    assert!(parse_manifest("a\tb\n", Path::new("/c")).is_err());
    assert!(parse_manifest("a\tb\tc\tpdf\n", Path::new("/c")).is_err());
}

#[test]
fn json_gold_round_trip() {
    let j = r#"{"html": "raw/x/agb.html", "lang": "de", "first_words": "Allgemeine Geschäftsbedingungen",
        "last_words": "Stand: Januar 2024",
        "headings": [{"title": "§ 1 Geltung", "children": [{"title": "(1) Sub"}]}]}"#;
    let g: JsonGold = serde_json::from_str(j).unwrap();
    let gold = Gold::from_json(&g);
    assert_eq!(gold.first_tokens, ["allgemeine", "geschäftsbedingungen"]);
    assert_eq!(gold.last_tokens, ["stand", "januar", "2024"]);
    assert_eq!(
        titles(gold.headings.as_ref().unwrap()),
        ["§ 1 Geltung[(1) Sub]"]
    );
    assert!(gold.text.is_none());
    assert!(
        serde_json::from_str::<JsonGold>(
            r#"{"html":"x","lang":"de","first_words":"a",
        "last_words":"b","typo":1}"#
        )
        .is_err()
    );
}
