//! The closing lines just after the content: a "Questions? Contact …" paragraph, a
//! representative's address, a "Last updated" line standing after the last section in the
//! same container.

use super::*;

/// Most visible characters the closing lines may add, as a share of the candidate's own
/// text …
const MAX_CLOSING_SHARE: f64 = 0.15;
/// … but always this many.
const MIN_CLOSING_CHARS: u64 = 400;

/// Adds the siblings after the candidate's last element when they are all that is left of
/// their container — the run reaches its last child, so nothing of another kind (a comment
/// box, related articles) follows inside it — and read like the document's closing lines:
/// no page frame or form, few links, short next to the content. At the level of the content
/// root's children nothing is added (those are the site's frame).
/// A box named the site's footer (`<div class="footer">`, [`FOOTER_NAMES`]) or inside an
/// ARIA frame landmark is frame, like `<footer>`.
pub(super) fn add_closing(
    candidate: &mut Candidate,
    (stats, page): (&StyleStats, &str),
    children: &Children,
    sums: &StyleSums,
    root: ElementId,
    limits: &ExtensionLimits,
) {
    let Some(&last) = candidate.elements.last() else {
        return;
    };
    let parent = sums.parent_of(last);
    if parent == 0 || parent == root {
        return;
    }
    let siblings = children.of(parent);
    let Some(pos) = siblings.iter().position(|&c| c == last) else {
        return;
    };
    let after = &siblings[pos + 1..];
    if after.is_empty() {
        return;
    }
    let own: u64 = candidate
        .elements
        .iter()
        .map(|&c| sums.visible[c as usize])
        .sum();
    let budget = ((MAX_CLOSING_SHARE * own as f64) as u64).max(MIN_CLOSING_CHARS);
    let mut used = 0u64;
    for &c in after {
        let i = c as usize;
        let tag = stats.tag_name(c);
        // Frame in the subtree counts, not only the sibling's own tag (`sums.frame` holds
        // the sibling itself, what lies around it and what it holds): a side column holding
        // an `<aside>` (opening hours, a newsletter box) is no closing line of the document
        // beside it.
        let frame = sums.frame[i]
            || matches!(tag, "form" | "button" | "iframe")
            || named_footer(page, stats.elements[i].range.start);
        let visible = sums.visible[i];
        let linky = sums.links[i] as f64 > limits.max_link_share * visible.max(1) as f64;
        if frame || linky || sums.text_before(c) {
            return;
        }
        used += visible;
        if used > budget {
            return;
        }
    }
    if used == 0 {
        return;
    }
    candidate.elements.extend_from_slice(after);
    candidate.closing_elements += after.len();
}

/// Class or id tokens that name the site's footer on pages that do not use `<footer>`.
const FOOTER_NAMES: [&str; 4] = ["footer", "site-footer", "page-footer", "global-footer"];

/// Whether the start tag at `start` in the page names the site's footer by a class or id
/// token ([`FOOTER_NAMES`]): `<div class="main footer">`, `<div id="footer">`.
fn named_footer(page: &str, start: usize) -> bool {
    let Some(rest) = page.get(start..) else {
        return false;
    };
    let end = memchr::memchr(b'>', rest.as_bytes()).unwrap_or(rest.len());
    let tag = &rest.as_bytes()[..end.min(2_000)];
    if memchr::memmem::find(tag, b"ooter").is_none() {
        return false;
    }
    let tag = String::from_utf8_lossy(tag).to_ascii_lowercase();
    ["class", "id"].iter().any(|name| {
        attribute_value(&tag, name).is_some_and(|v| {
            v.split_ascii_whitespace()
                .any(|token| FOOTER_NAMES.contains(&token))
        })
    })
}

/// The value of attribute `name` in a lower-cased start tag (quoted or not).
fn attribute_value<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let mut from = 0;
    while let Some(found) = tag.get(from..)?.find(name) {
        let at = from + found;
        from = at + name.len();
        let before_ok = tag[..at].ends_with(|c: char| c.is_ascii_whitespace());
        let rest = tag[from..].trim_start();
        let Some(value) = rest.strip_prefix('=').map(str::trim_start) else {
            continue;
        };
        if !before_ok {
            continue;
        }
        return Some(match value.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let inner = &value[1..];
                &inner[..inner.find(q).unwrap_or(inner.len())]
            }
            _ => {
                &value[..value
                    .find(|c: char| c.is_ascii_whitespace())
                    .unwrap_or(value.len())]
            }
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footer_names_are_class_or_id_tokens() {
        assert!(named_footer("<div class=\"main footer\">", 0));
        assert!(named_footer("<div id=footer>", 0));
        assert!(named_footer("<DIV CLASS='Site-Footer x'>", 0));
        assert!(!named_footer("<div class=\"entry-footer\">", 0));
        assert!(!named_footer("<div data-class=\"footer\">", 0));
        assert!(!named_footer(
            "<div class=\"footnotes\" title=\"footer\">",
            0
        ));
        assert!(!named_footer("<p>", 0));
    }
}
