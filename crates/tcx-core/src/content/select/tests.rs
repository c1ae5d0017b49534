use super::*;
use crate::AnalysisOptions;

fn candidate(html: &str, threshold: f64) -> (StyleStats, Candidate) {
    let stats = StyleStats::scan(html, &AnalysisOptions::default()).unwrap();
    let c = select(&stats, threshold).unwrap();
    (stats, c)
}

const P: &str = "<p>Lorem ipsum dolor sit amet consectetur adipiscing elit sed do.</p>";

#[test]
fn lca_is_the_deepest_element_over_the_threshold() {
    let html = format!(
        "<html><body><div><h1>Welcome to the shop</h1></div><div id=\"c\"><div>{P}{P}{P}</div></div><p>Thanks for visiting us</p></body></html>"
    );
    let (stats, c) = candidate(&html, 0.85);
    assert_eq!(c.method, ContentMethod::Lca);
    assert_eq!(c.path, "/html/body/div[2]/div");
    assert_eq!(stats.style_key(c.most_common_style), "p");
    assert!(c.coverage > 0.85 && c.coverage < 1.0, "{}", c.coverage);
    assert!(html[c.ranges[0].clone()].starts_with("<div><p>"));
}

#[test]
fn threshold_is_inclusive() {
    // Exactly 3 of 4 equal paragraphs inside the div: coverage 0.75.
    let html = format!("<body><div>{P}{P}{P}</div>{P}</body>");
    let (_, c) = candidate(&html, 0.75);
    assert_eq!(c.method, ContentMethod::Lca);
    // The LCA holds 0.75; the paragraph beside it holds a real share and is added.
    assert_eq!(c.extended_siblings, 1);
    assert_eq!(c.coverage, 1.0);
    let (_, c) = candidate(&html, 0.76);
    assert_eq!(c.method, ContentMethod::Fallback);
}

#[test]
fn fallback_takes_the_richest_run_ignoring_whitespace() {
    // A menu longer than the bridging limit between the paragraphs separates two runs.
    let menu: String = (0..80)
        .map(|i| format!("<a href=/{i}>Entry {i}</a> "))
        .collect();
    let html = format!(
        "<body>\n<nav><a>Home</a></nav>\n{P}\n<div>{menu}</div>\n{P}\n{P}\n{P}\n<footer>(c) 2024 Shop GmbH</footer>\n</body>"
    );
    let (_, c) = candidate(&html, 0.85);
    assert_eq!(c.method, ContentMethod::Fallback);
    assert_eq!(c.elements.len(), 3);
    assert_eq!(
        c.path,
        "/html/body/p[2] | /html/body/p[3] | /html/body/p[4]".replace("/html", "")
    );
    assert!((c.coverage - 0.75).abs() < 1e-9);
}

#[test]
fn a_fallback_run_of_one_wrapper_is_looked_into() {
    // A page wrapper holds a cookie bar and the menu (both `nav`), then the text; a box after
    // the footer keeps any element from the threshold, so the fallback runs. Its run is the
    // wrapper alone: the run inside it stands for it, without the wrapper's frame.
    let html = format!(
        "<body><div class=page><nav class=cookie-warning><p>We use cookies to provide social media features and to analyse our traffic.</p></nav>\
         <nav><a href=/>Home</a> <a href=/blog>Blog</a></nav><div class=text>{P}{P}{P}{P}{P}</div></div><footer>(c) Shop</footer><div>{P}</div></body>"
    );
    let (_, c) = candidate(&html, 0.9);
    assert_eq!(c.method, ContentMethod::Fallback);
    assert_eq!(c.elements.len(), 5);
    assert!(c.path.starts_with("/body/div[1]/div/p[1] |"), "{}", c.path);
    // A run inside the wrapper that keeps less than `DESCEND_SHARE` of its text (two parts
    // split by a menu) does not stand for it.
    let menu: String = (0..80)
        .map(|i| format!("<a href=/{i}>Entry {i}</a> "))
        .collect();
    let split = format!(
        "<body><div class=page><div>{P}{P}</div><div>{menu}</div><div>{P}{P}{P}</div></div><footer>(c) Shop</footer><div>{P}</div></body>"
    );
    let (_, c) = candidate(&split, 0.9);
    assert_eq!(c.method, ContentMethod::Fallback);
    assert_eq!(c.path, "/body/div[1]");
}

#[test]
fn the_page_footer_is_not_part_of_the_fallback_run() {
    let html = format!(
        "<body>\n<header><a href=/>Home</a></header>\n<main>{P}{P}{P}{P}</main>\n<footer>{P}{P}</footer>\n</body>"
    );
    let (_, c) = candidate(&html, 0.9);
    // The footer's text is frame: it neither counts for the most common style (so the LCA
    // finds `main` at once) nor joins a run.
    assert_eq!(c.method, ContentMethod::Lca);
    assert_eq!(c.path, "/body/main");
}

#[test]
fn text_between_paragraphs_is_bridged_but_not_between_wrappers() {
    // Paragraphs written straight into the body, loose words between them: one run.
    let html = format!("<body>{P}{P} some loose words here {P}</body>");
    let (_, c) = candidate(&html, 0.9);
    assert_eq!(c.method, ContentMethod::Fallback);
    assert_eq!(c.elements.len(), 3);
    // Two wrappers with text between them: two runs, the richer one wins (and, being one
    // wrapper, stands for the run of its paragraphs).
    let html = format!("<body><div>{P}{P}</div> some loose words here <div>{P}{P}{P}</div></body>");
    let (_, c) = candidate(&html, 0.9);
    assert_eq!(c.method, ContentMethod::Fallback);
    assert_eq!(
        c.path,
        "/body/div[2]/p[1] | /body/div[2]/p[2] | /body/div[2]/p[3]"
    );
}

#[test]
fn text_directly_in_body_selects_the_body() {
    let (_, c) = candidate(
        "<html><body>Just text in the body with many words<br>and more words in here</body></html>",
        0.85,
    );
    assert_eq!(c.path, "/html/body");
    assert_eq!(c.method, ContentMethod::Fallback);
}

#[test]
fn no_text_gives_none_and_short_text_still_counts() {
    let stats = StyleStats::scan("<body><div></div></body>", &AnalysisOptions::default()).unwrap();
    assert!(select(&stats, 0.85).is_none());
    let (_, c) = candidate(
        "<body><nav>Home</nav><div><p>Hallo Welt</p></div></body>",
        0.85,
    );
    // The paragraph brings its container (the div holds nothing else).
    assert_eq!(c.path, "/html/body/div".replace("/html", ""));
}

/// The opening of the document in a box beside the LCA's container (a table between them):
/// the common ancestor is taken, since what it adds is prose; one more level up, where the
/// navigation would come in, is not.
#[test]
fn split_content_one_level_up_is_joined_by_its_prose() {
    let rest: String = (0..24).map(|_| P).collect();
    let html = format!(
        "<html><body><nav><a href=/a>Shop</a> <a href=/b>About us</a></nav><div class=grid><div class=items>\
         <div class=text><h1>Terms of Use</h1><p><b>These terms replace all prior versions of the terms of use.</b></p>{P}</div>\
         <div class=table><table><tr><td>Plan</td><td>Price</td></tr></table></div>\
         <div class=text><div class=inner>{rest}</div></div></div></div></body></html>"
    );
    let (_, c) = candidate(&html, 0.85);
    assert_eq!(c.method, ContentMethod::Lca);
    assert_eq!(c.path, "/html/body/div/div");
    assert_eq!(c.coverage, 1.0);
    // The same with a menu of links beside the text: the ancestor would add mostly links.
    let menu: String = (0..12)
        .map(|i| format!("<a href=/{i}>Menu entry {i}</a> "))
        .collect();
    let html = html.replace(
        "<div class=table>",
        &format!("<div class=menu>{menu}</div><div class=table>"),
    );
    let (_, c) = candidate(&html, 0.85);
    assert_ne!(c.path, "/html/body/div/div");
}
