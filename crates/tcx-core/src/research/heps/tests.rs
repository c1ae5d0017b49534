//! The HEPS reference test cases of HEPS-CASES.md (tmanabe/HEPS `test/`), as our own tests,
//! plus the cases that file lists as not covered (C1, threshold boundaries, converted empty
//! elements, image headings).

use super::*;
use crate::AnalysisOptions;
use crate::parse::tree::AncestorElement;
use crate::structure::heps::without_sentence_breaking;

const RED_H1: &str = r#"style="color: red; font-size: 10.5pt; font-style: italic; font-weight: normal; text-decoration: underline""#;

/// The reduced tree of a body's inner HTML, with the body's attributes as an enclosing element.
fn page(body: &str, body_attrs: &[(&str, &str)]) -> (ReducedTree, ComputedStyles) {
    let mut tree = ReducedTree::build(
        body,
        std::slice::from_ref(&(0..body.len())),
        &AnalysisOptions::default(),
    )
    .unwrap();
    tree.ancestors = vec![
        AncestorElement {
            tag: "html".into(),
            attributes: Vec::new(),
        },
        AncestorElement {
            tag: "body".into(),
            attributes: body_attrs
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
        },
    ];
    let styles = ComputedStyles::compute(&tree, &[]);
    (tree, styles)
}

fn run(body: &str, heading: &str) -> Heps {
    let (tree, styles) = page(body, &[]);
    heps(&tree, &styles, heading, &Thresholds::default())
}

fn replicas(body: &str, heading: &str) -> ReplicaTree {
    let (tree, styles) = page(body, &[]);
    ReplicaTree::build(&tree, &styles, heading)
}

/// The first replica (any state) whose content is `text`.
fn find(t: &ReplicaTree, text: &str) -> ReplicaId {
    t.replicas
        .iter()
        .position(|r| r.content == text)
        .unwrap_or_else(|| panic!("no replica {text:?}"))
}

fn list_starting<'a>(h: &'a Heps, text: &str) -> &'a CandidateList {
    h.lists
        .iter()
        .find(|l| h.tree.replicas[l.members[0]].content == text)
        .unwrap_or_else(|| panic!("no list starting with {text:?}"))
}

// ---- Block*, HEPS_* --------------------------------------------------------------------------

#[test]
fn block_fields_and_ranges() {
    // Block.html
    let body = format!(
        "\n<h1 {RED_H1}>\n    h1-0</h1>\n<p>\n    h1-0-body</p>\n<h1 {RED_H1}>\n    h1-1</h1>\n<p>\n    h1-1-body</p>\n"
    );
    let h = run(&body, "title");
    assert_eq!(
        h.tree.slice(0, h.tree.raw.len()),
        "title h1-0 h1-0-body h1-1 h1-1-body"
    );
    assert_eq!(h.tree.replicas[2].name(), "h1");
    assert_eq!(h.tree.replicas[5].name(), "p");
    // The p list sorts first (16px > 14px) and is rejected.
    let p = &h.lists[0];
    assert_eq!(h.tree.replicas[p.members[0]].content, "h1-0-body");
    assert!(p.filtered_by.contains(&Filter::EmptyBlock));
    assert!(p.filtered_by.contains(&Filter::TooMuch));
    assert!(h.lists[1].filtered_by.is_empty());
    let first = h.blocks[0].children[0];
    let b = &h.blocks[first];
    assert_eq!(b.nodes, [2, 5]);
    assert_eq!(h.part_of[2], Some(first));
    assert_eq!(h.part_of[5], Some(first));
    assert!(b.children.is_empty());
    let (from, to) = (
        h.tree.replicas[b.nodes[0]].from,
        h.tree.replicas[*b.nodes.last().unwrap()].to,
    );
    assert_eq!((from, to), (6, 20));
    let heading = b.heading.unwrap();
    assert_eq!(
        h.tree.key_string(&h.tree.replicas[heading].key),
        "rgb(255, 0, 0);14;italic;400;null;/body/h1/#text;underline"
    );
    assert_eq!(
        (h.tree.replicas[heading].from, h.tree.replicas[heading].to),
        (6, 10)
    );
    assert!(h.has_heading[0]);
    assert_eq!(h.outline(), "h1-0, h1-1");
}

#[test]
fn block_includes_by_id_range() {
    // Block_includes.html
    let h = run(
        "\n<h1>h1-0</h1>\n<p>h1-0-body</p>\n<h1>h1-1</h1>\n<p>h1-1-body</p>\n",
        "",
    );
    assert_eq!(h.outline(), "h1-0, h1-1");
    let b0 = h.blocks[0].children[0];
    let b1 = h.blocks[0].children[1];
    assert!(h.block_includes(0, h.blocks[b0].nodes[0]));
    assert!(!h.block_includes(b0, h.blocks[b1].nodes[0]));
}

#[test]
fn classify_by_style_key() {
    // HEPS_classify.html
    let body = "\n<span>base0</span>\n<span>base1</span>\n<span>base2</span>\n<span style=\"color: red\">color</span>\n\
        <span style=\"font-size: 48px\">font-size</span>\n<span style=\"font-style: italic\">font-style</span>\n\
        <span style=\"font-weight: bold\">font-weight</span>\n<img src=\"baseimg\">\n<img src=\"offset-height\" style=\"height: 64px\">\n\
        <div>tagPath</div>\n<span style=\"text-decoration: underline\">text-decoration</span>\n";
    let (tree, styles) = page(body, &[]);
    let mut rt = ReplicaTree::build(&tree, &styles, "");
    rt.preprocess(false);
    assert!(rt.breaking_nodes().is_empty());
    let lists = classify(&rt);
    assert_eq!(lists.len(), 9);
    let contents = |l: &CandidateList| {
        l.members
            .iter()
            .map(|&m| rt.replicas[m].content.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(contents(&lists[0]), ["base0", "base1", "base2"]);
    for (l, c) in lists[1..].iter().zip([
        "color",
        "font-size",
        "font-style",
        "font-weight",
        "baseimg",
        "offset height",
        "tagPath",
        "text-decoration",
    ]) {
        assert_eq!(contents(l), [c]);
    }
    assert_eq!(lists[5].key.height, None);
    assert_eq!(lists[6].key.height, Some(64));
}

#[test]
fn construct_empty_blocks_are_filtered() {
    // HEPS_construct_0.html
    let h = run("<h1>h1-0</h1> <h1>h1-1</h1> <h1>h1-2</h1>", "");
    assert_eq!(h.lists.len(), 1);
    let l = &h.lists[0];
    assert_eq!(
        l.front_nodes,
        l.members
            .iter()
            .map(|&m| h.tree.replicas[m].parent)
            .collect::<Vec<_>>()
    );
    assert!(l.filtered_by.contains(&Filter::EmptyBlock));
    assert!(h.blocks[0].children.is_empty());
}

#[test]
fn construct_no_sibling_candidates() {
    // HEPS_construct_1.html
    let h = run(
        "\n<h1>h1-0</h1>\n    <h2>h2-0</h2>\n    #text-0\n<h1>h1-1</h1>\n    <h2>h2-1</h2>\n    #text-1\n<h1>h1-2</h1>\n    <h2>h2-2</h2>\n    #text-2\n",
        "",
    );
    let firsts: Vec<&str> = h
        .lists
        .iter()
        .map(|l| h.tree.replicas[l.members[0]].content.as_str())
        .collect();
    assert_eq!(firsts, ["h1-0", "h2-0", "#text-0"]);
    assert!(h.lists[0].filtered_by.is_empty());
    assert!(h.lists[1].filtered_by.contains(&Filter::NoSiblings));
    assert_eq!(h.outline(), "h1-0, h1-1, h1-2");
    for &b in &h.blocks[0].children {
        assert_eq!(h.blocks[b].nodes.len(), 3);
    }
}

#[test]
fn construct_non_unique_contents() {
    // HEPS_construct_2.html
    let h = run(
        "\n<h1>h1</h1>\n<p>#text-0</p>\n<h1>h1</h1>\n<p>#text-1</p>\n<h1>h1</h1>\n<p>#text-2</p>\n",
        "",
    );
    assert_eq!(h.tree.replicas[h.lists[0].members[0]].content, "h1");
    assert!(h.lists[0].filtered_by.contains(&Filter::NonUnique));
}

#[test]
fn construct_too_much_content() {
    // HEPS_construct_3.html
    let h = run(
        "\n<h1>h1-00</h1>\n<p>0</p>\n<h1>h1-01</h1>\n<p>1</p>\n<h1>h1-02</h1>\n<p>2</p>\n",
        "",
    );
    assert_eq!(h.tree.replicas[h.lists[0].members[0]].content, "h1-00");
    assert!(h.lists[0].filtered_by.contains(&Filter::TooMuch));
}

#[test]
fn construct_drops_single_empty_blocks() {
    // HEPS_construct_4.html
    let body = "\n<h1>h1-0</h1>\n<p>#text-0</p>\n<h1>h1-1</h1>\n<h1>h1-2</h1>\n<p>#text-1</p>\n<h1>h1-3</h1>\n<p>#text-2</p>\n";
    let h = run(body, "");
    assert_eq!(h.blocks[0].children.len(), 3);
    assert_eq!(h.outline(), "h1-0, h1-2, h1-3");
    // The paper's C2 threshold (0.2) would reject the whole list: one empty block in four.
    let (tree, styles) = page(body, &[]);
    let paper = heps(&tree, &styles, "", &Thresholds::PAPER);
    assert!(paper.lists[0].filtered_by.contains(&Filter::EmptyBlock));
    assert_eq!(paper.outline(), "");
}

#[test]
fn preprocess_removes_blanks_and_merges_sentence_breaking_nodes() {
    // HEPS_preprocess.html and Replica_breaksSentence.html
    let body = "\n\n        <h1>\n            3</h1>\n        4\n        <h2>\n            6</h2>\n\n        <h3>\n            9</h3>\n        10\n        <h4>\n            12</h4>\n        13\n        <h5>\n            15</h5>\n\n        <h6>\n            18</h6>\n        19\n        <p>\n            21</p>\n        ";
    let mut t = replicas(body, "");
    for (id, name) in [
        (2, "h1"),
        (5, "h2"),
        (8, "h3"),
        (11, "h4"),
        (14, "h5"),
        (17, "h6"),
    ] {
        assert_eq!(t.replicas[id].name(), name);
    }
    assert_eq!(t.replicas[21].content, "21");
    assert_eq!(t.children(0).len(), 15);
    t.preprocess(false);
    assert_eq!(t.breaking_nodes(), [11]);
    assert_eq!(t.children(0).len(), 9);
    let merged = t.children(0)[4];
    assert_eq!(t.replicas[merged].content, "10 12 13");
    assert!(t.replicas[merged].is_text);
}

#[test]
fn sort_by_depth_size_weight_and_order() {
    // HEPS_sort.html
    let body = "\n<div>\n    <h2 style=\"font-weight: normal; color: red\">h2-4</h2>\n    <h2 style=\"font-weight: normal; color: red\">h2-5</h2>\n\
        <h2 style=\"font-weight: normal\">h2-2</h2>\n    <h2 style=\"font-weight: normal\">h2-3</h2>\n    <h2>h2-0</h2>\n    <h2>h2-1</h2>\n\
        <h1>h1-0</h1>\n    <h1>h1-1</h1>\n</div>\n<div>div-0</div>\n<div>div-1</div>\n";
    let h = run(body, "");
    let firsts: Vec<&str> = h
        .lists
        .iter()
        .map(|l| h.tree.replicas[l.members[0]].content.as_str())
        .collect();
    assert_eq!(firsts, ["div-0", "h1-0", "h2-0", "h2-4", "h2-2"]);
}

#[test]
fn front_nodes_of_zero_one_and_many() {
    // MyArray_getFrontNodes_0/1/2.html
    let t = replicas("<h1>h1</h1>", "");
    assert!(front_nodes(&t, &[]).is_empty());
    assert_eq!(front_nodes(&t, &[find(&t, "h1")]), [0]);
    let t = replicas("<div><h1>h1-0</h1></div><div><h1>h1-1</h1></div>", "");
    let members = [find(&t, "h1-0"), find(&t, "h1-1")];
    let f = front_nodes(&t, &members);
    assert_eq!(f.len(), 2);
    assert!(
        f.iter()
            .all(|&x| t.replicas[x].name() == "div" && t.replicas[x].depth == 2)
    );
}

#[test]
fn node_sequences_stop_at_headings_front_nodes_and_the_end() {
    // MyArray_calcNodeArrays.html (the outer div is never closed)
    let body = "\n<div>\n    <div>\n        <h1>h1-0</h1>\n    </div>\n    <div>\n        <h2>h2-0</h2>\n    </div>\n    <div>\n        The next sibling is a node including a heading.\n    </div>\n\
        <div>\n        <h1>h1-1</h1>\n    </div>\n    <div>\n        <h2>h2-1</h2>\n        The next sibling is another front node of the same style.\n    </div>\n\
        <div>\n        <h2>h2-2</h2>\n        There is no following sibling.\n    </div>\n";
    let h = run(body, "");
    assert_eq!(h.outline(), "h1-0 [h2-0], h1-1 [h2-1, h2-2]");
    let top = &h.blocks[0].children;
    assert_eq!(h.blocks[top[0]].nodes.len(), 3);
    assert_eq!(h.blocks[top[1]].nodes.len(), 3);
    let len = |b: usize, i: usize| h.blocks[h.blocks[b].children[i]].nodes.len();
    assert_eq!(len(top[0], 0), 2);
    assert_eq!(len(top[1], 0), 1);
    assert_eq!(len(top[1], 1), 1);
    // Not covered by the reference suite: C1 as a set-level reason. Two of the three front
    // nodes of the plain-text list hold an accepted h2.
    let text = list_starting(&h, "The next sibling is a node including a heading.");
    assert!(text.filtered_by.contains(&Filter::UpperHeadings));
}

#[test]
fn context_blocks_follow_the_latest_mark() {
    // Replica_getContextBlock.html
    let body = "\n\n        <h1>\n            3</h1>\n        4 4 4 4 4\n        <h1>\n            6</h1>\n\n        <h2>\n            9</h2>\n\n        <p>\n            12 12 12</p>\n        <h2>\n            14</h2>\n        15 15 15\n        ";
    let h = run(body, "");
    assert_eq!(h.tree.replicas[14].name(), "h2");
    assert_eq!(h.tree.replicas[16].content, "15 15 15");
    assert!(
        list_starting(&h, "12 12 12")
            .filtered_by
            .contains(&Filter::NoSiblings)
    );
    assert!(
        list_starting(&h, "4 4 4 4 4")
            .filtered_by
            .contains(&Filter::EmptyBlock)
    );
    assert_eq!(h.outline(), "3, 6 [9, 14]");
    let top = &h.blocks[0].children;
    let (c0, c1) = (top[0], top[1]);
    let (g0, g1) = (h.blocks[c1].children[0], h.blocks[c1].children[1]);
    assert_eq!(h.blocks[c0].nodes, [2, 4]);
    assert_eq!(h.blocks[c1].nodes, [5, 8, 11, 14, 16]);
    assert_eq!(h.blocks[g0].nodes, [8, 11]);
    assert_eq!(h.blocks[g1].nodes, [14, 16]);
    assert_eq!(h.context_block(0), 0);
    assert_eq!(h.context_block(4), c0);
    assert_eq!(h.context_block(6), c1);
    assert_eq!(h.context_block(12), g0);
    assert_eq!(h.context_block(14), g1);
}

// ---- Replica_* -------------------------------------------------------------------------------

#[test]
fn replica_root_and_text_fields() {
    // Replica_0.html and Replica_1.html
    let t = replicas("body", "title");
    assert_eq!(t.heading_len, 5);
    assert_eq!(t.slice(0, t.raw.len()), "title body");
    let root = &t.replicas[0];
    assert_eq!((root.name(), root.depth, root.parent), ("body", 1, 0));
    assert_eq!((root.from, root.to, root.id_to), (6, 10, 1));
    assert_eq!(t.children(0), [1]);
    let text = &t.replicas[1];
    assert_eq!(
        (text.name(), text.is_text, text.content.as_str()),
        ("#text", true, "body")
    );
    assert_eq!(
        (text.parent, text.depth, text.from, text.to, text.id_to),
        (0, 2, 6, 10, 1)
    );
    assert!(t.children(1).is_empty());
    // Upper-case tags are lower-cased.
    let t = replicas("<DIV>x</DIV>", "");
    assert_eq!(t.replicas[1].name(), "div");
}

#[test]
fn image_text_is_tokenised_src_and_alt() {
    // Replica_2.html
    let mut t = replicas(
        "\n<img>\n<img alt=\"alt\">\n<img src=\"src\">\n<img alt=\"alt\" src=\"src\">\n",
        "",
    );
    t.preprocess(false);
    let contents: Vec<&str> = t
        .children(0)
        .iter()
        .map(|&c| t.replicas[c].content.as_str())
        .collect();
    assert_eq!(contents, ["", "alt", "src", "src alt"]);
    let t = replicas(
        "<img src=\"https://x.example/img/logo-big.png\" alt=\" Our  logo \">",
        "",
    );
    assert_eq!(t.replicas[1].content, "x example img logo big png Our logo");
}

#[test]
fn unrendered_children_are_not_scanned_and_comments_get_no_replica() {
    // Replica_IGNORE_CHILDREN_OF.html: the reduced tree drops iframe/style/script/noscript
    // with their contents; the reference keeps the elements as empty replicas.
    let t = replicas("<iframe>iframe</iframe>\nbody\n<style>style</style>\n", "");
    assert_eq!(t.slice(0, t.raw.len()), " body");
    assert!(
        t.replicas
            .iter()
            .all(|r| !matches!(r.name(), "iframe" | "style"))
    );
    // Replica_SCAN_CHILDREN_OF.html: the comment gets no replica; the texts around it are
    // one text in the reduced tree.
    let t = replicas("body\n<!-- comment -->\n<div>\n    div\n</div>\n", "");
    let names: Vec<&str> = t.replicas.iter().map(|r| r.name()).collect();
    assert_eq!(names, ["body", "#text", "div", "#text", "#text"]);
    assert_eq!(t.replicas[1].content, "body");
    assert_eq!(t.replicas[3].content, "div");
}

#[test]
fn blank_removal_relinks_siblings() {
    // Replica_chain.html and Replica_isBlank.html
    let mut t = replicas("\n<div></div>\n<div></div>\n<div></div>\n", "");
    t.preprocess(false);
    let c = t.children(0);
    assert_eq!(c.len(), 3);
    assert_eq!((t.prev(c[0]), t.next(c[0])), (None, Some(c[1])));
    assert_eq!((t.prev(c[1]), t.next(c[1])), (Some(c[0]), Some(c[2])));
    assert_eq!((t.prev(c[2]), t.next(c[2])), (Some(c[1]), None));
    let mut t = replicas("\n<h1>\n3</h1>", "");
    t.preprocess(false);
    assert!(t.replicas[1].is_text && t.replicas[1].content.is_empty());
    assert!(!t.replicas[1].attached);
    assert_eq!(t.replicas[3].content, "3");
    assert_eq!(t.children(0), [2]);
}

#[test]
fn page_heading_from_title_base_or_url() {
    // Replica_extractPageHeading_0..3, Replica_normalizeSpace, Replica_tokenizeURL
    assert_eq!(
        page_heading(Some("\n    Dummy Title\n"), None, "x"),
        "Dummy Title"
    );
    assert_eq!(
        page_heading(Some("\n    T e  s   t\n"), None, "x"),
        "T e s t"
    );
    assert_eq!(
        page_heading(
            None,
            Some("http://dummy.url/"),
            "file:///home/u/HEPS/test/Replica_extractPageHeading_1.html"
        ),
        "dummy url Replica_extractPageHeading_1 html"
    );
    assert!(
        page_heading(
            None,
            None,
            "file:///home/u/HEPS/test/Replica_extractPageHeading_2.html"
        )
        .contains("test Replica_extractPageHeading_2 html")
    );
    assert_eq!(
        page_heading(
            None,
            Some("http://dummy.url/basename.ext"),
            "file:///x/y.html"
        ),
        "dummy url basename ext"
    );
    assert_eq!(
        tokenize_url("https://u:p@s.d.t/!#/b_n.e"),
        "u p s d t b_n e"
    );
    let t = replicas("", &page_heading(Some(" Dummy  Title "), None, ""));
    assert_eq!(t.slice(0, t.raw.len()), "Dummy Title");
}

#[test]
fn style_records_and_key_string() {
    // Replica_getStyle_0.html and Replica_stringifyStyle.html
    let attrs = [(
        "style",
        "color: red; font-size: 10.5pt; font-style: italic; font-weight: normal; text-decoration: underline",
    )];
    let (tree, styles) = page("Dummy", &attrs);
    let t = ReplicaTree::build(&tree, &styles, "");
    let k = t.replicas[1].key;
    assert_eq!(
        (k.color, k.size, k.italic, k.weight, k.height, k.underline),
        (0xff0000, 1400, true, 400, None, true)
    );
    assert_eq!(t.path(&k), "/body/#text");
    assert_eq!(
        t.key_string(&k),
        "rgb(255, 0, 0);14;italic;400;null;/body/#text;underline"
    );
    // Replica_getStyle_1.html: presentational tags.
    let t = replicas(
        "<font color=\"#ff0000\" size=\"7\">\n    <i>\n        <b>\n            <u>\n                Dummy\n            </u>\n        </b>\n    </i>\n</font>",
        "",
    );
    let k = t.replicas[find(&t, "Dummy")].key;
    assert_eq!(
        (k.color, k.size, k.italic, k.weight, k.underline),
        (0xff0000, 4800, true, 700, true)
    );
    assert_eq!(t.path(&k), "/body/font/i/b/u/#text");
    // Replica_getStyle_2.html: image height from the attribute.
    let t = replicas("<img height=\"50px\">", "");
    assert_eq!(t.replicas[1].key.height, Some(50));
    // Replica_getStyle_parseWeight_0/1.html
    for w in ["bold", "700"] {
        let (tree, styles) = page("Dummy", &[("style", &format!("font-weight: {w}"))]);
        let t = ReplicaTree::build(&tree, &styles, "");
        assert_eq!(t.replicas[1].key.weight, 700);
    }
}

#[test]
fn includes_by_id_range() {
    // Replica_includes.html
    let t = replicas("\n<h1>\n3</h1>4 4 4 4 4", "");
    assert!(t.includes(2, 3));
    assert!(!t.includes(2, 4));
}

#[test]
fn merge_spans_both_and_detaches_the_mergee() {
    // Replica_merge.html
    let mut t = replicas("\n<h1>merger</h1>\n<h1>mergee</h1>\n", "title");
    t.preprocess(false);
    assert_eq!(t.slice(0, t.raw.len()), "title merger mergee");
    t.merge(2, 5);
    let m = &t.replicas[2];
    assert_eq!(
        (m.from, m.to, m.content.as_str(), m.id_to),
        (6, 19, "merger mergee", 6)
    );
    assert!(!t.replicas[5].attached);
    assert_eq!(t.children(0), [2]);
}

#[test]
fn detach_and_to_text() {
    // Replica_removeChild.html
    let mut t = replicas("<a></a><b></b><i></i>", "");
    t.detach(2);
    let names: Vec<&str> = t
        .children(0)
        .iter()
        .map(|&c| t.replicas[c].name())
        .collect();
    assert_eq!(names, ["a", "i"]);
    // Replica_toText.html and Replica_traverse_0.html
    let mut t = replicas("body<h1>h1</h1>", "");
    assert_eq!(t.preorder().len(), 4);
    t.to_text(0);
    let r = &t.replicas[0];
    assert_eq!(
        (r.name(), r.is_text, r.content.as_str()),
        ("#text", true, "body h1")
    );
    assert!(t.children(0).is_empty());
    assert_eq!(t.preorder().len(), 1);
}

#[test]
fn empty_page_runs() {
    // sanity.html (fail.html is the reference harness's self-check and has no counterpart)
    let h = run("", "");
    assert!(h.lists.is_empty());
    assert_eq!(h.blocks.len(), 1);
    assert_eq!(h.outline(), "");
}

// ---- Not covered by the reference suite --------------------------------------------------------

#[test]
fn converted_empty_elements_get_no_content() {
    // `<span></span>` between two texts is sentence-breaking; the reference gives it one
    // stray separator character, we give it nothing.
    let mut t = replicas("a<span></span>b", "");
    t.preprocess(false);
    assert_eq!(t.children(0).len(), 1);
    assert_eq!(t.replicas[t.children(0)[0]].content, "a b");
    // A converted element with no text neighbours stays a standalone text of the new style.
    let mut t = replicas("<p>x <b>y</b> z</p><p><b>Titel</b></p>", "");
    t.preprocess(false);
    let p2 = t.children(0)[1];
    let b = t.children(p2)[0];
    assert!(t.replicas[b].is_text);
    assert_eq!(t.replicas[b].content, "Titel");
    assert_eq!(t.replicas[b].key.weight, 400);
}

#[test]
fn thresholds_are_at_least_comparisons() {
    // C2 at exactly 0.5 rejects (Block.html's p list); the default keeps the paper's C3, C4.
    let d = Thresholds::default();
    assert_eq!(d.empty, 0.5);
    assert_eq!(d.no_siblings, Thresholds::PAPER.no_siblings);
    assert_eq!(d.non_unique, Thresholds::PAPER.non_unique);
    // C1 boundary: two of ten front nodes holding an accepted heading (ratio 0.2).
    let mut body = String::from(
        "<div><h2>A</h2><p>Text a here long enough</p></div><div><h2>B</h2><p>Text b here long enough</p></div>",
    );
    for i in 1..9 {
        body.push_str(&format!(
            "<div><p>Section {i} text</p><span>more words in this span to pad it</span></div>"
        ));
    }
    let (tree, styles) = page(&body, &[]);
    for (threshold, rejected) in [(0.1, true), (0.2, true), (0.25, false)] {
        let th = Thresholds {
            upper_headings: threshold,
            ..Thresholds::default()
        };
        let h = heps(&tree, &styles, "", &th);
        let l = list_starting(&h, "Text a here long enough");
        assert_eq!(
            l.filtered_by.contains(&Filter::UpperHeadings),
            rejected,
            "{threshold}: {:?}",
            l.filtered_by
        );
        assert_eq!(l.filtered_by.len(), usize::from(rejected));
    }
}

#[test]
fn image_alt_text_can_head_blocks() {
    let body = "<div><img src=\"a.png\" alt=\"Kapitel\" height=\"40\"><p>Erster Teil des Textes mit Inhalt.</p></div>\
        <div><img src=\"b.png\" alt=\"Anhang\" height=\"40\"><p>Zweiter Teil des Textes mit Inhalt.</p></div>";
    let h = run(body, "");
    assert_eq!(h.outline(), "a png Kapitel, b png Anhang");
}

#[test]
fn deep_trees_do_not_overflow() {
    let body = format!(
        "{}<h1>a</h1>x{}",
        "<div>".repeat(10_000),
        "</div>".repeat(10_000)
    );
    let h = run(&body, "");
    assert!(!h.lists.is_empty());
}

#[test]
fn tree_pass_agrees_with_the_replica_tree() {
    let body = "<div><p>Der <b>Vertrag</b> kommt <i>hier</i> zustande.</p><p>Die <b>Ware</b> bleibt.</p>\
        <p><b>Titel <u>mit</u> Zusatz</b></p><p>a <span>b</span> c <em>d</em></p><h2>x <b>y</b> z</h2></div>\n <p>e <a href=\"#\">f</a> g</p>";
    let (tree, styles) = page(body, &[]);
    let out = without_sentence_breaking(&tree, &styles);
    let mut rt = ReplicaTree::build(&tree, &styles, "");
    rt.preprocess(true);
    let mut expected = styles.clone();
    for &(r, last, style) in &rt.converted {
        for x in &rt.replicas[r..=last] {
            expected.styles[x.node as usize] = style;
        }
    }
    assert!(!rt.converted.is_empty());
    assert_eq!(out.styles, expected.styles);
}
