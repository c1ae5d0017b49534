//! User-agent defaults: what a tag looks like before any style sheet.

use super::*;

/// User-agent defaults of a tag, resolved against the parent style.
pub(super) fn ua_style(tag: &str, has_href: bool, parent: &Style, s: &mut Style) {
    let em = |f: f32| parent.size * f;
    match tag {
        "h1" => (s.size, s.weight) = (em(2.0), 700),
        "h2" => (s.size, s.weight) = (em(1.5), 700),
        "h3" => (s.size, s.weight) = (em(1.17), 700),
        "h4" => (s.size, s.weight) = (em(1.0), 700),
        "h5" => (s.size, s.weight) = (em(0.83), 700),
        "h6" => (s.size, s.weight) = (em(0.67), 700),
        // A `<summary>` titles its `<details>`: sites set it apart (an accordion button's
        // label was tried too, but cookie declarations give every service a "Show details").
        "b" | "strong" | "th" | "summary" => s.weight = bolder(parent.weight),
        "i" | "em" | "cite" | "var" | "dfn" | "address" => s.italic = true,
        "u" | "ins" => s.underline = true,
        "a" if has_href => {
            s.underline = true;
            s.color = 0x0000ee;
        }
        "small" | "sub" | "sup" => s.size = parent.size / 1.2,
        "big" => s.size = parent.size * 1.2,
        "caption" | "legend" => {}
        _ => {}
    }
}

/// Whether a class attribute names its element a title: a token whose last word ends in
/// "title", "heading" or "headline" (`section-title`, `headline__title`, `sectionTitle`,
/// `subheading`), unless its first word says the element has or hides one (`no-title`,
/// `has-title`, `hide-heading`: a wrapper's layout modifier). The site's own sheet, which sets
/// such elements apart, is mostly an external file we never see; the name stands in for it as
/// a default (bold) that the page's rules still override.
pub(super) fn names_a_title(class: &str) -> bool {
    const MODIFIERS: [&str; 7] = ["no", "has", "hide", "hidden", "show", "with", "without"];
    class.split_ascii_whitespace().any(|token| {
        let first = token
            .split(|c: char| !c.is_ascii_alphanumeric())
            .find(|w| !w.is_empty())
            .unwrap_or_default();
        if MODIFIERS.iter().any(|m| first.eq_ignore_ascii_case(m)) {
            return false;
        }
        let last = token
            .rsplit(|c: char| !c.is_ascii_alphanumeric())
            .find(|w| !w.is_empty())
            .unwrap_or_default()
            .as_bytes();
        ["title", "heading", "headline"].iter().any(|w| {
            last.len() >= w.len() && last[last.len() - w.len()..].eq_ignore_ascii_case(w.as_bytes())
        })
    })
}

/// `<font size color face>`.
pub(super) fn font_element<'a>(
    attribute: impl Fn(&str) -> Option<&'a str>,
    s: &mut Style,
    family: &mut Option<String>,
) {
    if let Some(v) = attribute("size") {
        let v = v.trim();
        let n = if let Some(d) = v.strip_prefix('+') {
            d.parse::<i32>().ok().map(|d| 3 + d)
        } else if let Some(d) = v.strip_prefix('-') {
            d.parse::<i32>().ok().map(|d| 3 - d)
        } else {
            v.parse::<i32>().ok()
        };
        if let Some(n) = n {
            s.size = match n.clamp(1, 7) {
                1 => 10.0,
                2 => 13.0,
                3 => 16.0,
                4 => 18.0,
                5 => 24.0,
                6 => 32.0,
                _ => 48.0,
            };
        }
    }
    if let Some(c) = attribute("color").and_then(parse_color) {
        s.color = c;
    }
    if let Some(f) = attribute("face").and_then(first_family) {
        *family = Some(f);
    }
}

pub(super) fn bolder(w: u16) -> u16 {
    match w {
        0..=349 => 400,
        350..=549 => 700,
        _ => 900,
    }
}

pub(super) fn lighter(w: u16) -> u16 {
    match w {
        0..=549 => 100,
        550..=749 => 400,
        _ => 700,
    }
}
