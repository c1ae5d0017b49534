use super::*;

fn scan(html: &str) -> StyleStats {
    StyleStats::scan(html, &AnalysisOptions::default()).unwrap()
}

fn by_tag<'a>(s: &'a StyleStats, tag: &str) -> Vec<(ElementId, &'a ElementRecord)> {
    s.elements
        .iter()
        .enumerate()
        .filter(|(i, _)| s.tag_name(*i as u32) == tag)
        .map(|(i, e)| (i as u32, e))
        .collect()
}

#[test]
fn counts_direct_text_with_short_text_exclusion() {
    let s = scan("<body><p>Die <b>AGB</b> gelten ab sofort hier.</p></body>");
    let p = by_tag(&s, "p")[0].1;
    assert_eq!(p.counted_chars, "gelten ab sofort hier.".len() as u32);
    assert_eq!(
        p.all_chars,
        ("Die".len() + "gelten ab sofort hier.".len()) as u32
    );
    assert_eq!(by_tag(&s, "b")[0].1.counted_chars, 0);
}

#[test]
fn style_keys_sort_attributes_and_decode_entities() {
    let s = scan(
        r#"<div id="a" class="x&amp;y">one two three four</div><div class="x&y" id="a">five six seven eight</div>"#,
    );
    let divs = by_tag(&s, "div");
    assert_eq!(divs[0].1.style, divs[1].1.style);
    assert_eq!(s.style_key(divs[0].1.style), r#"div class="x&y" id="a""#);
}

#[test]
fn implied_end_tags_make_siblings() {
    let s = scan("<body><p>one two three four<p>five six seven eight</body>");
    let ps = by_tag(&s, "p");
    assert_eq!(ps.len(), 2);
    assert_eq!(ps[0].1.parent, ps[1].1.parent);
    assert_eq!(s.tag_name(ps[0].1.parent), "body");
}

#[test]
fn unrendered_text_is_ignored_and_title_kept() {
    let s = scan(
        "<html><head><title> Meine  AGB </title><style>p{color:red}</style></head><body><script>var a = 'one two three four';</script><p>x</p></body></html>",
    );
    assert_eq!(s.title.as_deref(), Some("Meine AGB"));
    assert_eq!(s.stylesheets, vec!["p{color:red}".to_owned()]);
    assert!(s.elements.iter().all(|e| e.counted_chars == 0));
    assert_eq!(s.tag_name(s.content_root), "body");
}

#[test]
fn byte_ranges_cover_the_element() {
    let html = "<body><div><p>one two three four</p></div><p>x</p></body>";
    let s = scan(html);
    let (_, div) = by_tag(&s, "div")[0];
    assert_eq!(
        &html[div.range.clone()],
        "<div><p>one two three four</p></div>"
    );
    // An implicitly closed element ends where the closing start tag begins.
    let html = "<body><p>one two three four<div>x</div></body>";
    let s = scan(html);
    let (_, p) = by_tag(&s, "p")[0];
    assert_eq!(&html[p.range.clone()], "<p>one two three four");
}

#[test]
fn chunking_does_not_change_the_result() {
    let html = "<html><body><div class=\"a&amp;b\"><p>Gr&ouml;&szlig;e und Gewicht der Ware &amp; mehr</p></div></body></html>";
    let whole = scan(html);
    for size in [1, 2, 3, 7] {
        let chunks: Vec<&[u8]> = html.as_bytes().chunks(size).collect();
        let s = StyleStats::scan_chunks(chunks, html.len(), &AnalysisOptions::default()).unwrap();
        assert_eq!(s, whole, "chunk size {size}");
    }
    let p = by_tag(&whole, "p")[0].1;
    assert_eq!(
        p.counted_chars,
        "Größe und Gewicht der Ware & mehr".chars().count() as u32
    );
}

#[test]
fn paths_index_same_tag_siblings() {
    let s = scan("<html><body><div>a</div><div><p>x</p></div></body></html>");
    let (p, _) = by_tag(&s, "p")[0];
    assert_eq!(s.path(p), "/html/body/div[2]/p");
}

#[test]
fn ancestors_carry_their_attributes() {
    let s = scan(
        r#"<html><body class="page x1"><div id="main" class="content"><p>t</p></div></body></html>"#,
    );
    let (p, _) = by_tag(&s, "p")[0];
    let chain = s.ancestors(p);
    let tags: Vec<&str> = chain.iter().map(|a| a.tag.as_str()).collect();
    assert_eq!(tags, ["html", "body", "div"]);
    assert_eq!(
        chain[1].attributes,
        vec![("class".to_owned(), "page".to_owned())]
    );
    assert_eq!(
        chain[2].attributes,
        vec![
            ("class".to_owned(), "content".to_owned()),
            ("id".to_owned(), "main".to_owned())
        ]
    );
}

#[test]
fn words_and_chars() {
    assert_eq!(count_words_and_chars("  a\tb \u{a0} c "), (3, 5));
    assert_eq!(count_words_and_chars("   "), (0, 0));
    let long = "Diese  Allgemeinen\tGeschäftsbedingungen gelten für alle Verträge zwischen uns. ";
    assert_eq!(
        count_words_and_chars(&long.repeat(3)),
        (
            27,
            long.repeat(3)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .chars()
                .count() as u32
        )
    );
}

proptest::proptest! {
    #[test]
    fn words_and_chars_count_the_folded_text(text in "([a-zß \t\n\u{b}\u{a0}\u{2003}.]{0,40}){0,6}") {
        let words: Vec<&str> = text.split_whitespace().collect();
        let folded = words.join(" ");
        proptest::prop_assert_eq!(
            count_words_and_chars(&text),
            (words.len(), folded.chars().count() as u32)
        );
    }
}

#[test]
fn names_read_from_the_page_equal_the_parsers_reading() {
    // Upper case, unquoted, single-quoted, valueless and entity-bearing attributes, custom
    // and namespaced tags: the whole-page scan reads them from the page, the chunked scan
    // from lol_html; both must agree.
    let html = "<HTML><Body CLASS=\"Page\"><DIV id=main class='a&amp;b  c1' hidden data-x=y>\
                <my-widget role=navigation>Menu eins zwei drei vier</my-widget>\
                <p style=\"color: red\" title=\"&quot;q&quot;\">Ein Absatz mit genug Wörtern hier.</p>\
                <svg:rect></svg:rect><P CLASS=x>Zweiter Absatz mit genug Wörtern</P>\
                <div class=\"\" id>leer aber mit Text darin jetzt</div></DIV></Body></HTML>";
    let whole = scan(html);
    let chunks: Vec<&[u8]> = html.as_bytes().chunks(3).collect();
    let chunked = StyleStats::scan_chunks(chunks, html.len(), &AnalysisOptions::default()).unwrap();
    assert_eq!(whole, chunked);
    assert!(
        whole
            .style_keys
            .iter()
            .any(|k| k == "div class=\"a&b\" data-x=\"y\" hidden=\"\" id=\"main\""),
        "{:?}",
        whole.style_keys
    );
}

#[test]
fn text_after_body_and_html_end_tags_stays_in_the_body() {
    // Browsers ignore `</body>` and `</html>`; a custom `</body-note>` is an ordinary end tag.
    let html = "<html><body><div><p>eins zwei drei vier</p></BODY ><p>nach dem Ende hier</p>\
                <body-note><p>in der Notiz</p></body-note><p>danach</p></html></div>";
    for s in [
        scan(html),
        StyleStats::scan_chunks(
            html.as_bytes().chunks(5).collect::<Vec<_>>(),
            html.len(),
            &AnalysisOptions::default(),
        )
        .unwrap(),
    ] {
        let div = by_tag(&s, "div")[0].0;
        let parents: Vec<u32> = by_tag(&s, "p").iter().map(|(_, p)| p.parent).collect();
        let note = by_tag(&s, "body-note")[0].0;
        assert_eq!(parents, [div, div, note, div]);
    }
    let tree = crate::parse::tree::ReducedTree::of_whole(html);
    let div = tree
        .nodes
        .iter()
        .position(|n| n.tag() == Some("div"))
        .unwrap();
    let ps: Vec<u32> = tree
        .nodes
        .iter()
        .filter(|n| n.tag() == Some("p"))
        .map(|n| n.parent)
        .collect();
    assert_eq!(ps.iter().filter(|&&p| p as usize == div).count(), 3);
}

/// Pieces of markup whose reading between the start tags is easy to get wrong: raw text,
/// script escapes, comments, stray and upper-case end tags, cut-off markup.
const PIECES: &[&str] = &[
    "<div class=\"a\">",
    "</div>",
    "<p>",
    "</p>",
    "<span>",
    "</SPAN >",
    "<li>",
    "</li>",
    "<ul>",
    "</ul>",
    "<b>",
    "</b>",
    "<body>",
    "</body>",
    "</html>",
    "<br>",
    "</br>",
    "<img src=x>",
    "<script>",
    "</script>",
    "</script x=1>",
    "<style>",
    "</style>",
    "<title>",
    "</title>",
    "<textarea>",
    "</textarea>",
    "<noscript>",
    "</noscript>",
    "<svg>",
    "</svg>",
    "<svg/>",
    "<math>",
    "</math>",
    "<mi>",
    "</mi>",
    "<foreignObject>",
    "</foreignObject>",
    "<desc>",
    "</desc>",
    "<title/>",
    "<font color=red>",
    "<font>",
    "<annotation-xml>",
    "</annotation-xml>",
    "<xmp>",
    "</xmp>",
    "<iframe>",
    "</iframe>",
    "<plaintext>",
    "<image/>",
    "<image>",
    "<!-- note -->",
    "<!-->",
    "<!--",
    "-->",
    "<!DOCTYPE html>",
    "<?xml x?>",
    "</>",
    "</ 3>",
    "<![CDATA[x]]>",
    "Ein Satz mit fünf Wörtern hier. ",
    "a < b &amp; c ",
    "&nbsp;",
    "\n  ",
    "<",
    "</",
    "<a href",
];

proptest::proptest! {
    #[test]
    fn pages_read_between_start_tags_as_lol_html_reads_them(
        pieces in proptest::collection::vec(0..PIECES.len(), 0..40),
        chunk in 1usize..9,
    ) {
        let html: String = pieces.iter().map(|&i| PIECES[i]).collect();
        let options = AnalysisOptions::default();
        let whole = StyleStats::scan(&html, &options).ok();
        // Misnested end tags are read by the browser's rules from the page, by lol_html's
        // pairing from chunks: only well-nested pages read alike.
        if whole.as_ref().is_some_and(|s| s.repaired_end_tags > 0) {
            return Ok(());
        }
        let chunks: Vec<&[u8]> = html.as_bytes().chunks(chunk).collect();
        let chunked = StyleStats::scan_chunks(chunks, html.len(), &options).ok();
        proptest::prop_assert_eq!(&whole, &chunked, "pass 1 of {:?}", html);
        let range = 0..html.len();
        let whole_page = std::slice::from_ref(&range);
        let from_page = crate::parse::tree::ReducedTree::build(&html, whole_page, &options).ok();
        let from_handler =
            crate::parse::tree::ReducedTree::build_with_text_handler(&html, whole_page, &options)
                .ok();
        proptest::prop_assert_eq!(from_page, from_handler, "pass 2 of {:?}", html);
    }
}
