//! Unit tests of the blocks.

use super::*;
use crate::AnalysisOptions;

fn blocks_of(html: &str) -> Vec<Block> {
    let tree = ReducedTree::build(
        html,
        std::slice::from_ref(&(0..html.len())),
        &AnalysisOptions::default(),
    )
    .unwrap();
    blocks(&tree)
}

fn texts(html: &str) -> Vec<String> {
    blocks_of(html).into_iter().map(|b| b.text).collect()
}

#[test]
fn splits_at_blocks_and_br_without_spaces_inside_words() {
    assert_eq!(
        texts("<div>Hello<b>W</b>orld <i>again</i><p>Next\n  line</p>tail<br>after</div>"),
        ["HelloWorld again", "Next line", "tail", "after"]
    );
    assert_eq!(texts("<p><b>nec</b>, sed</p>"), ["nec, sed"]);
    assert_eq!(texts("<p> \u{a0} </p><p>x</p>"), ["x"]);
    assert_eq!(texts("<p>Ver\u{ad}trag</p>"), ["Vertrag"]);
}

#[test]
fn kinds_emphasis_and_links() {
    let b = blocks_of(
        "<h2>1. Title</h2><p><strong>Bold heading</strong></p><p>Some <b>bold</b> words in text</p>\
         <ul><li>item</li></ul><table><tr><td>cell</td></tr></table><p><a href='#'>Download PDF</a></p>\
         <p style='font-weight: 700'>styled</p>",
    );
    assert_eq!(b[0].kind, BlockKind::Heading(2));
    assert!(b[0].bold);
    assert_eq!(
        b[0].enumeration.as_ref().map(|e| e.values.clone()),
        Some(vec![1])
    );
    assert!(b[1].bold);
    assert!(!b[2].bold);
    assert_eq!(b[3].kind, BlockKind::ListItem);
    assert_eq!(b[4].kind, BlockKind::TableCell);
    assert!(b[5].link_only);
    assert!(b[6].bold);
    assert!(b[1].uniform && !b[2].uniform && b[0].uniform);
    assert_eq!(b[0].style.size, 24.0);
    assert_eq!(b[3].list_depth, 1);
    assert!(b[3].list_item.is_some());
}

#[test]
fn data_tables_become_rows_and_layout_tables_read_in_order() {
    let b = texts(
        "<table><caption>Versandkosten</caption><thead><tr><th>Land</th><th>Kosten</th></tr></thead>\
         <tbody><tr><td>Deutschland</td><td>4,90 €</td></tr><tr><td>Österreich</td><td>9,90 €</td></tr></tbody></table>",
    );
    assert_eq!(
        b,
        [
            "Versandkosten",
            "Land: Deutschland; Kosten: 4,90 €",
            "Land: Österreich; Kosten: 9,90 €"
        ]
    );
    let b = texts(
        "<table><tr><th>Paket</th><td>5 €</td></tr><tr><th>Spedition</th><td>50 €</td></tr></table>",
    );
    assert_eq!(b, ["Paket: 5 €", "Spedition: 50 €"]);
    // An imprint's label cells end with their own colon.
    let b = texts(
        "<table><tr><td>Firma:</td><td>Zimmerei Huber GmbH</td></tr><tr><th>Telefon:</th><td>08031 0000</td></tr></table>",
    );
    assert_eq!(b, ["Firma: Zimmerei Huber GmbH", "Telefon: 08031 0000"]);
    let b = texts(
        "<table><tr><td>Total:</td><td>7</td><td>Mean:</td><td>2.5</td></tr><tr><td>a</td><td>b</td></tr></table>",
    );
    assert_eq!(b, ["Total: 7; Mean: 2.5", "a; b"]);
    let layout = blocks_of(
        "<table><tr><td><h2>§ 1 Geltung</h2><p>Text eins.</p></td><td>Spalte</td></tr><tr><td>x</td><td>y</td></tr></table>",
    );
    let t: Vec<&str> = layout.iter().map(|b| b.text.as_str()).collect();
    assert_eq!(t, ["§ 1 Geltung", "Text eins.", "Spalte", "x", "y"]);
    assert_eq!(layout[0].kind, BlockKind::Heading(2));
    assert_eq!(layout[1].kind, BlockKind::Paragraph);
    assert_eq!(layout[2].kind, BlockKind::TableCell);
}

/// The text, counts and words of a block built from `nodes` by `push`.
fn built(nodes: &[(String, bool)], push: fn(&mut Builder, &str, Context, Style)) -> String {
    let mut b = Builder::default();
    let bold = Style {
        weight: 700,
        ..Style::default()
    };
    for (i, (text, link)) in nodes.iter().enumerate() {
        let ctx = Context {
            link: *link,
            block_node: i as NodeId,
            ..Context::default()
        };
        push(
            &mut b,
            text,
            ctx,
            if i % 2 == 0 { bold } else { Style::default() },
        );
    }
    let counts = (b.chars, b.bold_chars, b.link_chars, b.pending_space);
    let styles: Vec<_> = b.styles.iter().map(|s| (s.chars, s.alnum)).collect();
    b.flush();
    let block = b.blocks.first().map(|k| (k.text.clone(), k.words, k.node));
    format!("{counts:?} {styles:?} {block:?}")
}

proptest::proptest! {
    #[test]
    fn text_nodes_copied_at_once_build_what_characters_build(
        nodes in proptest::collection::vec(
            ("([ \t\n\x0b\r]|[a-zA-Z0-9.,;()§-]{1,6}|  |\u{a0}|\u{ad}|\u{200b}|\u{85}|\u{2003}|[äßé€–]|\x01|\x7f){0,12}", proptest::bool::ANY),
            0..5,
        )
    ) {
        proptest::prop_assert_eq!(
            built(&nodes, Builder::push_text),
            built(&nodes, Builder::push_text_by_chars)
        );
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let html = format!(
        "{}deep text{}",
        "<div>".repeat(20_000),
        "</div>".repeat(20_000)
    );
    assert_eq!(texts(&html), ["deep text"]);
}

#[test]
fn the_quick_alphanumeric_test_agrees_with_the_unicode_tables() {
    for c in (0..=0x3_ffff).filter_map(char::from_u32) {
        assert_eq!(is_alphanumeric(c), c.is_alphanumeric(), "{c:?}");
    }
}
