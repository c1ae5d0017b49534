use super::*;

#[test]
fn tracked_tags_are_found_in_their_order() {
    for (i, tag) in TRACKED.iter().enumerate() {
        assert_eq!(tracked(tag), Some(i));
    }
    assert_eq!(tracked("div"), None);
}

#[test]
fn common_tags_are_static() {
    for t in ["a", "div", "p", "video", "h3", "tbody"] {
        assert_eq!(static_tag(t), Some(t));
    }
    assert_eq!(static_tag("my-widget"), None);
}

/// Opens `tag` with the next id and returns what was implicitly closed.
fn open(s: &mut ElementStack, tag: &str, id: u32) -> Vec<u32> {
    let mut closed = Vec::new();
    s.imply_end_tags(tag, &mut closed);
    s.push(tag, id);
    closed
}

fn tags(s: &ElementStack) -> Vec<&str> {
    s.frames.iter().map(|f| &*f.tag).collect()
}

#[test]
fn p_is_closed_by_p_and_blocks() {
    let mut s = ElementStack::new();
    open(&mut s, "body", 0);
    open(&mut s, "p", 1);
    assert_eq!(open(&mut s, "p", 2), vec![1]);
    open(&mut s, "span", 3);
    assert_eq!(open(&mut s, "div", 4), vec![3, 2]);
    assert_eq!(tags(&s), ["body", "div"]);
}

#[test]
fn p_inside_table_cell_is_not_closed_across_scope() {
    let mut s = ElementStack::new();
    open(&mut s, "p", 1);
    open(&mut s, "table", 2);
    open(&mut s, "td", 3);
    assert!(open(&mut s, "div", 4).is_empty());
}

#[test]
fn list_items_and_definitions() {
    let mut s = ElementStack::new();
    open(&mut s, "ul", 1);
    open(&mut s, "li", 2);
    open(&mut s, "b", 3);
    assert_eq!(open(&mut s, "li", 4), vec![3, 2]);
    // A nested list's item does not close the outer item.
    open(&mut s, "ul", 5);
    assert!(open(&mut s, "li", 6).is_empty());
    let mut s = ElementStack::new();
    open(&mut s, "dl", 1);
    open(&mut s, "dt", 2);
    assert_eq!(open(&mut s, "dd", 3), vec![2]);
    assert_eq!(open(&mut s, "dt", 4), vec![3]);
}

#[test]
fn table_rows_and_cells() {
    let mut s = ElementStack::new();
    open(&mut s, "table", 1);
    open(&mut s, "tr", 2);
    open(&mut s, "td", 3);
    assert_eq!(open(&mut s, "td", 4), vec![3]);
    assert_eq!(open(&mut s, "tr", 5), vec![4, 2]);
    open(&mut s, "th", 6);
    assert_eq!(open(&mut s, "tbody", 7), vec![6, 5]);
}

#[test]
fn end_tags_close_only_open_elements() {
    let mut s = ElementStack::new();
    open(&mut s, "div", 1);
    open(&mut s, "p", 2);
    open(&mut s, "b", 3);
    let mut closed = Vec::new();
    s.close_by_name("p", &mut closed);
    assert_eq!(closed, vec![3, 2]);
    closed.clear();
    s.close_by_name("p", &mut closed); // stray: already closed
    assert!(closed.is_empty());
    s.finish(&mut closed);
    assert_eq!(closed, vec![1]);
    assert!(s.is_empty());
}

/// `<div class=col><p>a<div class=indent>b</p>c</div>d</div>`: the inner `div` closed the
/// `p`, so the stray `</p>` closes nothing and each `</div>` closes its own `div`.
#[test]
fn a_misnested_end_tag_does_not_close_the_containers() {
    let mut s = ElementStack::new();
    open(&mut s, "div", 1);
    open(&mut s, "p", 2);
    assert_eq!(open(&mut s, "div", 3), vec![2]);
    let mut closed = Vec::new();
    s.close_by_name("p", &mut closed);
    assert!(closed.is_empty());
    s.close_by_name("div", &mut closed);
    assert_eq!(closed, vec![3]);
    assert_eq!(tags(&s), ["div"]);
}

#[test]
fn an_end_tag_of_an_ordinary_element_stops_at_a_special_one() {
    let mut s = ElementStack::new();
    open(&mut s, "span", 1);
    open(&mut s, "div", 2);
    let mut closed = Vec::new();
    // `</span>` with a `div` opened inside the span is ignored ...
    s.close_by_name("span", &mut closed);
    assert!(closed.is_empty());
    // ... a formatting element's end tag closes what was opened inside it ...
    open(&mut s, "b", 3);
    open(&mut s, "section", 4);
    s.close_by_name("b", &mut closed);
    assert_eq!(closed, vec![4, 3]);
    // ... and `</td>` does not reach into an outer table.
    closed.clear();
    open(&mut s, "table", 5);
    s.close_by_name("td", &mut closed);
    assert!(closed.is_empty());
    // Nor `</div>` past the table inside it.
    s.close_by_name("div", &mut closed);
    assert!(closed.is_empty());
    s.close_by_name("table", &mut closed);
    s.close_by_name("div", &mut closed);
    assert_eq!(closed, vec![5, 2]);
}

#[test]
fn head_is_closed_by_body_content() {
    let mut s = ElementStack::new();
    open(&mut s, "html", 1);
    open(&mut s, "head", 2);
    open(&mut s, "meta", 3);
    assert_eq!(open(&mut s, "div", 4), vec![3, 2]);
    assert_eq!(tags(&s), ["html", "div"]);
}

#[test]
fn headings_close_open_headings() {
    let mut s = ElementStack::new();
    open(&mut s, "h2", 1);
    assert_eq!(open(&mut s, "h3", 2), vec![1]);
}
