//! The cascade: the page's rules indexed by their rightmost selector key, applied in
//! specificity order with `!important` and inline styles.

use super::*;
use simplecss::{AttributeOperator, SelectorToken, SelectorTokenizer, StyleSheet};
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use crate::parse::scan::FastHash;

/// A rule of the page's sheets, reduced to the declarations the cascade understands.
pub(super) struct IndexedRule<'a> {
    pub(super) selector: simplecss::Selector<'a>,
    pub(super) decls: Vec<Decl>,
    /// The names (tags, classes, ids) some ancestor of a matching element must have.
    pub(super) ancestors: AncestorFilter,
}

/// The page's rules, bucketed by the key of their rightmost compound selector.
pub(super) struct Cascade<'a> {
    /// Rules in specificity order (stable: source order among equals).
    pub(super) rules: Vec<IndexedRule<'a>>,
    pub(super) by_id: HashMap<String, Vec<usize>, FastHash>,
    pub(super) by_class: HashMap<String, Vec<usize>, FastHash>,
    pub(super) by_tag: HashMap<String, Vec<usize>, FastHash>,
    pub(super) universal: Vec<usize>,
    pub(super) needs_siblings: bool,
}

impl<'a> Cascade<'a> {
    /// The cascade of `rules`, rule sets as [`applicable_rules`] gives them.
    pub(super) fn new(rules: &'a [String]) -> Cascade<'a> {
        let mut c = Cascade {
            rules: Vec::new(),
            by_id: HashMap::default(),
            by_class: HashMap::default(),
            by_tag: HashMap::default(),
            universal: Vec::new(),
            needs_siblings: false,
        };
        if rules.is_empty() {
            return c;
        }
        // simplecss reports errors with positions counted from the start of its input, which
        // is quadratic on large sheets: feed it one rule at a time instead, then order all
        // rules by specificity (stable, so source order breaks ties).
        let mut rules: Vec<_> = rules
            .iter()
            .flat_map(|rule| StyleSheet::parse(rule).rules)
            .collect();
        // The key once per rule: a selector's specificity walks its components.
        rules.sort_by_cached_key(|r| r.selector.specificity());
        for rule in rules {
            let mut decls = Vec::new();
            for d in &rule.declarations {
                Decl::parse_into(d.name, d.value, d.important, &mut decls);
            }
            if decls.is_empty() {
                continue;
            }
            let text = rule.selector.to_string();
            let Some((key, siblings)) = rightmost_key(&text) else {
                continue;
            };
            c.needs_siblings |= siblings;
            let idx = c.rules.len();
            c.rules.push(IndexedRule {
                selector: rule.selector,
                decls,
                ancestors: AncestorFilter::required_by(&text),
            });
            match key {
                Key::Id(v) => c.by_id.entry(v).or_default().push(idx),
                Key::Class(v) => c.by_class.entry(v).or_default().push(idx),
                Key::Tag(v) => c.by_tag.entry(v).or_default().push(idx),
                Key::Universal => c.universal.push(idx),
            }
        }
        c
    }

    /// The computed style of element `el` whose parent has style `parent`, and the font
    /// family it sets, if any.
    pub(super) fn element_style(
        &self,
        ctx: &MatchContext<'_>,
        el: El,
        above: &AncestorFilter,
        parent: &Style,
        matched: &mut Vec<usize>,
    ) -> (Style, Option<String>) {
        let mut s = *parent;
        let mut family: Option<String> = None;
        let Some(tag) = ctx.tag(el) else {
            return (s, family);
        };
        ua_style(tag, ctx.attribute(el, "href").is_some(), parent, &mut s);
        if matches!(el, El::Node { .. }) && ctx.attribute(el, "class").is_some_and(names_a_title) {
            s.weight = s.weight.max(bolder(parent.weight));
        }
        if tag == "font" {
            font_element(|name| ctx.attribute(el, name), &mut s, &mut family);
        }
        let mut inline: Vec<Decl> = Vec::new();
        if let Some(v) = ctx.attribute(el, "style") {
            for d in simplecss::DeclarationTokenizer::from(v) {
                Decl::parse_into(d.name, d.value, d.important, &mut inline);
            }
        }
        if !self.rules.is_empty() {
            self.matching(ctx, el, above, matched);
        } else {
            matched.clear();
        }
        for important in [false, true] {
            for &r in matched.iter() {
                for d in &self.rules[r].decls {
                    if d.important == important {
                        d.apply(parent, &mut s, &mut family);
                    }
                }
            }
            for d in &inline {
                if d.important == important {
                    d.apply(parent, &mut s, &mut family);
                }
            }
        }
        (s, family)
    }

    /// Indices (in cascade order) of the rules matching element `el`.
    pub(super) fn matching(
        &self,
        ctx: &MatchContext<'_>,
        el: El,
        above: &AncestorFilter,
        out: &mut Vec<usize>,
    ) {
        out.clear();
        let Some(tag) = ctx.tag(el) else { return };
        if let Some(v) = self.by_tag.get(tag) {
            out.extend(v);
        }
        if let Some(v) = ctx
            .attribute(el, "id")
            .and_then(|i| self.by_id.get(i.trim()))
        {
            out.extend(v);
        }
        if let Some(classes) = ctx.attribute(el, "class") {
            for c in classes.split_ascii_whitespace() {
                if let Some(v) = self.by_class.get(c) {
                    out.extend(v);
                }
            }
        }
        out.extend(&self.universal);
        if out.is_empty() {
            return;
        }
        out.sort_unstable();
        out.dedup();
        out.retain(|&r| {
            let rule = &self.rules[r];
            above.contains(&rule.ancestors) && rule.selector.matches(&ctx.bind(el))
        });
    }
}

/// The rule sets of `sheets` that may apply to an element of `present`, each reduced to the
/// declarations the cascade reads ([`reduce_rule`]). Rules whose every selector names an id,
/// class or tag no element has are skipped before they are parsed: most of a framework's
/// sheet styles other pages.
pub(super) fn applicable_rules(sheets: &[String], present: &SelectorKeys<'_>) -> Vec<String> {
    sheets
        .iter()
        .flat_map(|text| relevant_rules(text))
        .filter(|chunk| present.may_match_rule(chunk))
        .filter_map(reduce_rule)
        .collect()
}

/// The properties [`Style`] reads ([`super::values::parse_declaration`]).
const READ_PROPERTIES: [&str; 8] = [
    "font",
    "font-family",
    "font-size",
    "font-style",
    "font-weight",
    "color",
    "text-decoration",
    "text-decoration-line",
];

/// A rule set (`selectors { declarations }`) with only the declarations of
/// [`READ_PROPERTIES`], or `None` when it has none. simplecss drops the rest of a block at the
/// first declaration it cannot read — a custom property (`--accent: #c00`), an old IE
/// filter (`filter: progid:…`) — where a browser skips only that declaration: `h2 { --gap:
/// 1rem; font-size: 2em }` set no size. Declarations are split at `;` outside strings, parentheses and
/// comments; a block holding a nested block is left whole.
pub(super) fn reduce_rule(rule: &str) -> Option<String> {
    let open = split_outside(rule, b'{').next()?.len();
    let body = rule.get(open + 1..)?.strip_suffix('}')?;
    if body.contains('{') {
        return Some(rule.to_owned());
    }
    let mut out = String::with_capacity(rule.len());
    out.push_str(&rule[..=open]);
    let mut kept = 0;
    for declaration in split_outside(body, b';') {
        // A comment may hold a colon ("/* Typography: sizes */ font-size: 2em").
        let bare = without_comments(declaration);
        let Some((name, _)) = bare.split_once(':') else {
            continue;
        };
        if READ_PROPERTIES
            .iter()
            .any(|p| name.trim().eq_ignore_ascii_case(p))
        {
            if kept > 0 {
                out.push(';');
            }
            out.push_str(declaration);
            kept += 1;
        }
    }
    out.push('}');
    (kept > 0).then_some(out)
}

/// The pieces of `text` between the bytes `sep` that stand outside strings, parentheses and
/// comments (the last piece runs to the end).
fn split_outside(text: &str, sep: u8) -> impl Iterator<Item = &str> {
    let b = text.as_bytes();
    let mut from = 0;
    let mut i = 0;
    let mut depth = 0usize;
    std::iter::from_fn(move || {
        if from > b.len() {
            return None;
        }
        while i < b.len() {
            match b[i] {
                q @ (b'"' | b'\'') => i = closing_quote(b, i + 1, q),
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    i = text[i + 2..].find("*/").map_or(b.len(), |p| i + 2 + p + 1);
                }
                b'(' => depth += 1,
                b')' => depth = depth.saturating_sub(1),
                c if c == sep && depth == 0 => {
                    let piece = &text[from..i];
                    i += 1;
                    from = i;
                    return Some(piece);
                }
                _ => {}
            }
            i += 1;
        }
        let piece = text.get(from..).unwrap_or_default();
        from = b.len() + 1;
        Some(piece)
    })
}

/// `text` without its `/* … */` comments.
fn without_comments(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("/*") {
        return text.into();
    }
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        rest = rest[start + 2..]
            .find("*/")
            .map_or("", |end| &rest[start + 2 + end + 2..]);
    }
    out.push_str(rest);
    out.into()
}

/// The top-level rule sets of a sheet whose declarations may touch a property of [`Style`];
/// at-rules (`@media`, `@font-face`, `@import` …) are skipped with their blocks.
pub(super) fn relevant_rules(css: &str) -> Vec<&str> {
    let b = css.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut start = 0;
    let mut depth = 0usize;
    let mut at_rule = false;
    let mut block_start = 0;
    // Only `/`, quotes, `{` and `}` change the state, and between rules `@` and `;` too (not
    // inside a block: declarations end with `;`). The next of each group at or after `i` is
    // found with memchr and looked for again only once passed, so every byte is read once by
    // a vectorised search (selector lists and declarations are most of a sheet's bytes).
    let (mut next_quote, mut next_brace, mut next_at) = (0, 0, 0);
    let find = |from: usize, found: Option<usize>| found.map_or(b.len(), |p| from + p);
    while i < b.len() {
        if next_quote < i {
            next_quote = find(i, memchr::memchr2(b'"', b'\'', &b[i..]));
        }
        if next_brace < i {
            next_brace = find(i, memchr::memchr3(b'{', b'}', b'/', &b[i..]));
        }
        let mut next = next_quote.min(next_brace);
        if depth == 0 {
            if next_at < i {
                next_at = find(i, memchr::memchr2(b'@', b';', &b[i..]));
            }
            next = next.min(next_at);
        }
        i = next;
        if i >= b.len() {
            break;
        }
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = css[i + 2..].find("*/").map_or(b.len(), |p| i + 2 + p + 2);
                continue;
            }
            q @ (b'"' | b'\'') => i = closing_quote(b, i + 1, q),
            // An at-rule starts where a rule would: after nothing but space and comments.
            b'@' if depth == 0 && !at_rule && only_space_and_comments(&css[start..i]) => {
                at_rule = true;
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
                    if !at_rule {
                        let decls = &b[block_start..i];
                        if STYLED_PROPERTIES.iter().any(|f| f.find(decls).is_some()) {
                            out.push(&css[start..=i]);
                        }
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

/// The position of the quote `q` that closes a string starting at `from` (escaped characters
/// skipped), or the end of the sheet.
fn closing_quote(b: &[u8], mut from: usize, q: u8) -> usize {
    while let Some(p) = b
        .get(from..)
        .and_then(|rest| memchr::memchr2(q, b'\\', rest))
    {
        if b[from + p] == q {
            return from + p;
        }
        from += p + 2;
    }
    b.len()
}

/// Words of the properties [`Style`] reads (`font-*`, `text-decoration`, `color`): a rule
/// set whose block holds none of them cannot change a computed style.
static STYLED_PROPERTIES: LazyLock<[memchr::memmem::Finder<'static>; 3]> = LazyLock::new(|| {
    [
        memchr::memmem::Finder::new("color"),
        memchr::memmem::Finder::new("font"),
        memchr::memmem::Finder::new("decoration"),
    ]
});

/// Whether a stretch of CSS holds only whitespace and complete comments.
pub(super) fn only_space_and_comments(mut s: &str) -> bool {
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return true;
        }
        let Some(rest) = s.strip_prefix("/*") else {
            return false;
        };
        match rest.find("*/") {
            Some(p) => s = &rest[p + 2..],
            None => return true,
        }
    }
}

/// The tags, classes and ids of the elements styles are computed for: a rule whose rightmost
/// compound names anything else cannot match.
#[derive(Default)]
pub(super) struct SelectorKeys<'t> {
    tags: HashSet<&'t str, FastHash>,
    classes: HashSet<&'t str, FastHash>,
    ids: HashSet<&'t str, FastHash>,
}

impl<'t> SelectorKeys<'t> {
    /// Adds an element (lower-case tag, its `class` and `id` values).
    pub(super) fn add(&mut self, tag: &'t str, class: Option<&'t str>, id: Option<&'t str>) {
        self.tags.insert(tag);
        if let Some(c) = class {
            self.classes.extend(c.split_ascii_whitespace());
        }
        if let Some(i) = id {
            self.ids.insert(i.trim());
        }
    }

    /// Whether a rule (`selectors { declarations }`) may match an element: false only when
    /// each of its comma-separated selectors names, in one of its compounds, a tag, class or
    /// id no element has (escapes, comments, attribute and functional selectors are kept, as
    /// unsure).
    pub(super) fn may_match_rule(&self, rule: &str) -> bool {
        let selectors = rule.split('{').next().unwrap_or("");
        if selectors.contains(['(', '[', '\\', '/', '"', '\'']) {
            return true;
        }
        // Every compound must match an element the cascade sees: the subject, an ancestor
        // or a sibling in the tree (siblings of enclosing elements are never matched).
        selectors.split(',').any(|s| {
            s.split(|c: char| c.is_ascii_whitespace() || matches!(c, '>' | '+' | '~'))
                .filter(|c| !c.is_empty())
                .all(|c| self.may_match_compound(c))
        })
    }

    fn may_match_compound(&self, compound: &str) -> bool {
        let b = compound.as_bytes();
        let simple_end = |from: usize| {
            b[from..]
                .iter()
                .position(|c| matches!(c, b'.' | b'#' | b':' | b'*'))
                .map_or(b.len(), |p| from + p)
        };
        let mut i = 0;
        if b.first().is_some_and(|c| c.is_ascii_alphabetic()) {
            let end = simple_end(0);
            let tag = &compound[..end];
            // Sheets write tags in lower case: a copy only for the others.
            let known = if tag.bytes().any(|c| c.is_ascii_uppercase()) {
                self.tags.contains(tag.to_ascii_lowercase().as_str())
            } else {
                self.tags.contains(tag)
            };
            if !known {
                return false;
            }
            i = end;
        }
        while i < b.len() {
            match b[i] {
                kind @ (b'.' | b'#') => {
                    let end = simple_end(i + 1);
                    let name = &compound[i + 1..end];
                    let set = if kind == b'.' {
                        &self.classes
                    } else {
                        &self.ids
                    };
                    if !name.is_empty() && !set.contains(name) {
                        return false;
                    }
                    i = end;
                }
                // Pseudo-classes and elements say nothing about the element's names.
                b':' => return true,
                _ => i += 1,
            }
        }
        true
    }
}

/// A Bloom filter of element names (tags, classes, ids), as browsers use for descendant
/// selectors: the names of all ancestors of an element, or the names a rule needs above its
/// subject. A rule whose needed names are not all in an element's ancestor filter cannot match
/// it, and is skipped without walking the ancestors.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct AncestorFilter([u64; 4]);

impl AncestorFilter {
    fn insert(&mut self, kind: u8, name: &str) {
        // FNV-1a, two bit positions from one 64-bit hash.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ u64::from(kind);
        for &b in name.as_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        for bit in [h & 255, (h >> 8) & 255] {
            self.0[(bit / 64) as usize] |= 1 << (bit % 64);
        }
    }

    /// Adds an element's tag, class tokens and id.
    pub(super) fn add_element(&mut self, tag: &str, class: Option<&str>, id: Option<&str>) {
        self.insert(b't', tag);
        for c in class.into_iter().flat_map(str::split_ascii_whitespace) {
            self.insert(b'.', c);
        }
        if let Some(i) = id {
            self.insert(b'#', i.trim());
        }
    }

    /// Whether every name of `needed` may be in this filter.
    pub(super) fn contains(&self, needed: &AncestorFilter) -> bool {
        self.0
            .iter()
            .zip(needed.0)
            .all(|(have, need)| have & need == need)
    }

    /// The names of the compounds of a selector that must match ancestors of its subject:
    /// those followed by a descendant or child combinator (a compound followed by a sibling
    /// combinator matches a sibling, whose own ancestors are the subject's).
    pub(super) fn required_by(selector: &str) -> AncestorFilter {
        let mut needed = AncestorFilter::default();
        let mut compound = AncestorFilter::default();
        for token in SelectorTokenizer::from(selector) {
            let Ok(token) = token else {
                return AncestorFilter::default();
            };
            match token {
                SelectorToken::DescendantCombinator | SelectorToken::ChildCombinator => {
                    for (n, c) in needed.0.iter_mut().zip(compound.0) {
                        *n |= c;
                    }
                    compound = AncestorFilter::default();
                }
                SelectorToken::AdjacentCombinator => compound = AncestorFilter::default(),
                SelectorToken::TypeSelector(t) => compound.insert(b't', t),
                // A parsed selector prints `.c` as `[class~='c']` and `#i` as `[id='i']`.
                SelectorToken::ClassSelector(c)
                | SelectorToken::AttributeSelector("class", AttributeOperator::Contains(c)) => {
                    compound.insert(b'.', c)
                }
                SelectorToken::IdSelector(i)
                | SelectorToken::AttributeSelector("id", AttributeOperator::Matches(i)) => {
                    compound.insert(b'#', i)
                }
                _ => {}
            }
        }
        needed
    }
}

pub(super) enum Key {
    Id(String),
    Class(String),
    Tag(String),
    Universal,
}

/// The most selective key of the rightmost compound of a selector, and whether the selector
/// needs sibling information.
pub(super) fn rightmost_key(selector: &str) -> Option<(Key, bool)> {
    let mut key = Key::Universal;
    let mut siblings = false;
    for token in SelectorTokenizer::from(selector) {
        match token.ok()? {
            SelectorToken::DescendantCombinator | SelectorToken::ChildCombinator => {
                key = Key::Universal
            }
            SelectorToken::AdjacentCombinator => {
                siblings = true;
                key = Key::Universal;
            }
            SelectorToken::TypeSelector(t) => {
                if matches!(key, Key::Universal) {
                    key = Key::Tag(t.to_ascii_lowercase());
                }
            }
            SelectorToken::AttributeSelector("class", AttributeOperator::Contains(c))
                if !matches!(key, Key::Id(_)) =>
            {
                key = Key::Class(c.to_owned());
            }
            SelectorToken::AttributeSelector("id", AttributeOperator::Matches(i)) => {
                key = Key::Id(i.to_owned())
            }
            SelectorToken::PseudoClass(p) => siblings |= p == "first-child",
            _ => {}
        }
    }
    Some((key, siblings))
}
