//! Static computed style of the reduced tree, without a browser.
//!
//! The cascade is a small approximation of CSS: a user-agent default sheet (heading sizes and
//! weights, `b`/`strong`/`th` bold, `i`/`em` italic, `u`/`ins`/`a[href]` underlined, `small`,
//! `big`, `<font size color face>` …), then the page's `<style>` rules parsed with
//! [`simplecss`] (type, `.class`, `#id`, compound, descendant, child and sibling selectors; rules
//! with selectors it cannot parse are skipped, `@media` blocks are ignored), then the inline
//! `style=` attribute; `!important` declarations win over normal ones. Font size, weight, style,
//! colour and family inherit; underline propagates to descendants as it does when rendered.
//! Relative sizes (`em`, `rem`, `%`, `smaller`/`larger`, keywords) resolve against the parent.
//!
//! The reduced tree holds only the content candidate; its enclosing elements on the page
//! ([`ReducedTree::ancestors`], outermost first) take part in selector matching (`.content h2`
//! matches when `.content` sits above the candidate) and pass their own computed style down to
//! the candidate (`<body style="font-size: 14px">`). When they are unknown (an empty list),
//! two stand-ins `body` and `html` are used for matching.

use std::collections::HashMap;

use simplecss::{AttributeOperator, PseudoClass, SelectorToken, SelectorTokenizer, StyleSheet};

use super::tree::{NodeId, ReducedTree};

/// Default font size of the root, px.
pub const ROOT_FONT_SIZE: f32 = 16.0;

/// Ancestors a descendant selector may look at (bounds matching on very deep trees).
const MAX_ANCESTOR_HOPS: u16 = 64;

/// The computed style of a node: what makes text look different.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Font size in px.
    pub size: f32,
    /// Font weight, 100–900 (400 normal, 700 bold).
    pub weight: u16,
    /// `font-style: italic` or `oblique`.
    pub italic: bool,
    /// Underlined (by `text-decoration` on the node or an ancestor).
    pub underline: bool,
    /// Colour as `0xRRGGBB`.
    pub color: u32,
    /// Index of the first font family in [`ComputedStyles::families`] (0 = unspecified).
    pub family: u32,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            size: ROOT_FONT_SIZE,
            weight: 400,
            italic: false,
            underline: false,
            color: 0,
            family: 0,
        }
    }
}

impl Style {
    /// Font size rounded to 1/100 px, for equality and hashing.
    fn size_key(&self) -> i32 {
        (self.size * 100.0).round() as i32
    }

    /// Whether the style is bold (weight 600 or more).
    pub fn is_bold(&self) -> bool {
        self.weight >= 600
    }

    /// Whether text in this style stands out from body text in `body`: larger, heavier, or
    /// underlined. Family, colour and italics alone do not count.
    pub fn more_prominent_than(&self, body: &Style) -> bool {
        (self.underline && !body.underline)
            || self.weight > body.weight
            || self.size > body.size + 0.25
    }

    /// Whether two styles look alike for the prominence-relevant properties (size, weight,
    /// underline).
    pub fn same_emphasis(&self, other: &Style) -> bool {
        self.size_key() == other.size_key()
            && self.weight == other.weight
            && self.underline == other.underline
    }
}

impl PartialEq for Style {
    fn eq(&self, other: &Self) -> bool {
        self.size_key() == other.size_key()
            && self.weight == other.weight
            && self.italic == other.italic
            && self.underline == other.underline
            && self.color == other.color
            && self.family == other.family
    }
}

impl Eq for Style {}

impl std::hash::Hash for Style {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.size_key().hash(state);
        self.weight.hash(state);
        self.italic.hash(state);
        self.underline.hash(state);
        self.color.hash(state);
        self.family.hash(state);
    }
}

/// The computed style of every node of a [`ReducedTree`] (text nodes carry their parent's).
#[derive(Debug, Clone, Default)]
pub struct ComputedStyles {
    /// Style by [`NodeId`].
    pub styles: Vec<Style>,
    /// Interned lower-case font family names; index 0 is the empty (unspecified) family.
    pub families: Vec<String>,
}

impl ComputedStyles {
    /// Computes the styles of `tree` with the UA sheet, the given `<style>` sheet texts and
    /// inline styles. Iterative: parents precede children in the node table.
    pub fn compute(tree: &ReducedTree, sheets: &[String]) -> ComputedStyles {
        let cascade = Cascade::new(sheets);
        let mut families = vec![String::new()];
        let mut family_ids: HashMap<String, u32> = HashMap::new();
        let n = tree.nodes.len();
        let mut styles = vec![Style::default(); n];
        let prev = if cascade.needs_siblings {
            previous_element_siblings(tree)
        } else {
            Vec::new()
        };
        let ctx = MatchContext { tree, prev: &prev };
        let mut matched: Vec<usize> = Vec::new();
        let mut intern = |f: String| -> u32 {
            let next = families.len() as u32;
            *family_ids.entry(f.clone()).or_insert_with(|| {
                families.push(f);
                next
            })
        };
        // The enclosing elements first: their style is what the candidate inherits.
        let mut above = Style::default();
        for i in 0..tree.ancestors.len() {
            let el = El::Ancestor(i as u16);
            let (s, family) = cascade.element_style(&ctx, el, &above, &mut matched);
            above = s;
            if let Some(f) = family {
                above.family = intern(f);
            }
        }
        if let Some(root) = styles.first_mut() {
            *root = above;
        }
        for id in 1..n {
            let node = &tree.nodes[id];
            let parent = styles
                .get(node.parent as usize)
                .copied()
                .unwrap_or_default();
            if node.tag().is_none() {
                styles[id] = parent;
                continue;
            }
            let el = El::Node {
                id: id as NodeId,
                hops: 0,
            };
            let (mut s, family) = cascade.element_style(&ctx, el, &parent, &mut matched);
            if let Some(f) = family {
                s.family = intern(f);
            }
            styles[id] = s;
        }
        ComputedStyles { styles, families }
    }

    /// The style of a node (the default style for ids out of range).
    pub fn get(&self, id: NodeId) -> Style {
        self.styles.get(id as usize).copied().unwrap_or_default()
    }
}

/// User-agent defaults of a tag, resolved against the parent style.
fn ua_style(tag: &str, has_href: bool, parent: &Style, s: &mut Style) {
    let em = |f: f32| parent.size * f;
    match tag {
        "h1" => (s.size, s.weight) = (em(2.0), 700),
        "h2" => (s.size, s.weight) = (em(1.5), 700),
        "h3" => (s.size, s.weight) = (em(1.17), 700),
        "h4" => (s.size, s.weight) = (em(1.0), 700),
        "h5" => (s.size, s.weight) = (em(0.83), 700),
        "h6" => (s.size, s.weight) = (em(0.67), 700),
        "b" | "strong" | "th" => s.weight = bolder(parent.weight),
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

/// `<font size color face>`.
fn font_element<'a>(
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

fn bolder(w: u16) -> u16 {
    match w {
        0..=349 => 400,
        350..=549 => 700,
        _ => 900,
    }
}

fn lighter(w: u16) -> u16 {
    match w {
        0..=549 => 100,
        550..=749 => 400,
        _ => 700,
    }
}

/// A font size as written.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Size {
    Px(f32),
    /// Relative to the parent's size (em, %, smaller, larger).
    Parent(f32),
    /// Relative to the root size (rem).
    Root(f32),
}

/// One declaration the cascade understands.
#[derive(Debug, Clone, PartialEq)]
struct Decl {
    important: bool,
    value: Value,
}

#[derive(Debug, Clone, PartialEq)]
enum Value {
    Size(Size),
    Weight(u16),
    Bolder,
    Lighter,
    Italic(bool),
    Underline(bool),
    Color(u32),
    Family(String),
    /// `inherit` for one property.
    Inherit(Property),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Property {
    Size,
    Weight,
    Italic,
    Color,
}

impl Decl {
    /// Parses one declaration into the [`Decl`]s it sets (the `font` shorthand sets several).
    fn parse_into(name: &str, value: &str, important: bool, out: &mut Vec<Decl>) {
        let mut values = Vec::new();
        parse_declaration(name, value, &mut values);
        out.extend(values.into_iter().map(|value| Decl { important, value }));
    }

    fn apply(&self, parent: &Style, s: &mut Style, family: &mut Option<String>) {
        match &self.value {
            Value::Size(size) => {
                s.size = match *size {
                    Size::Px(px) => px,
                    Size::Parent(f) => parent.size * f,
                    Size::Root(f) => ROOT_FONT_SIZE * f,
                }
                .clamp(1.0, 500.0)
            }
            Value::Weight(w) => s.weight = *w,
            Value::Bolder => s.weight = bolder(parent.weight),
            Value::Lighter => s.weight = lighter(parent.weight),
            Value::Italic(i) => s.italic = *i,
            Value::Underline(u) => s.underline = *u,
            Value::Color(c) => s.color = *c,
            Value::Family(f) => *family = Some(f.clone()),
            Value::Inherit(p) => match p {
                Property::Size => s.size = parent.size,
                Property::Weight => s.weight = parent.weight,
                Property::Italic => s.italic = parent.italic,
                Property::Color => s.color = parent.color,
            },
        }
    }
}

/// Parses a declaration into zero or more values (the `font` shorthand yields several).
fn parse_declaration(name: &str, value: &str, out: &mut Vec<Value>) {
    let name = name.trim().to_ascii_lowercase();
    let value = value.trim().to_ascii_lowercase();
    let inherit = value == "inherit";
    match name.as_str() {
        "font-size" if inherit => out.push(Value::Inherit(Property::Size)),
        "font-size" => out.extend(parse_size(&value).map(Value::Size)),
        "font-weight" if inherit => out.push(Value::Inherit(Property::Weight)),
        "font-weight" => out.extend(parse_weight(&value)),
        "font-style" if inherit => out.push(Value::Inherit(Property::Italic)),
        "font-style" => out.push(Value::Italic(
            value.starts_with("italic") || value.starts_with("oblique"),
        )),
        "text-decoration" | "text-decoration-line" => {
            if value.contains("underline") {
                out.push(Value::Underline(true));
            } else if value.starts_with("none") || value == "initial" {
                out.push(Value::Underline(false));
            }
        }
        "color" if inherit => out.push(Value::Inherit(Property::Color)),
        "color" => out.extend(parse_color(&value).map(Value::Color)),
        "font-family" => out.extend(first_family(&value).map(Value::Family)),
        "font" => parse_font_shorthand(&value, out),
        _ => {}
    }
}

fn parse_weight(v: &str) -> Option<Value> {
    Some(match v {
        "normal" | "initial" => Value::Weight(400),
        "bold" => Value::Weight(700),
        "bolder" => Value::Bolder,
        "lighter" => Value::Lighter,
        _ => Value::Weight(v.parse::<u16>().ok().filter(|w| (1..=1000).contains(w))?),
    })
}

fn parse_size(v: &str) -> Option<Size> {
    let v = v.trim();
    Some(match v {
        "xx-small" => Size::Px(9.0),
        "x-small" => Size::Px(10.0),
        "small" => Size::Px(13.0),
        "medium" | "initial" => Size::Px(16.0),
        "large" => Size::Px(18.0),
        "x-large" => Size::Px(24.0),
        "xx-large" => Size::Px(32.0),
        "xxx-large" => Size::Px(48.0),
        "smaller" => Size::Parent(1.0 / 1.2),
        "larger" => Size::Parent(1.2),
        _ => {
            let split = v
                .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
                .unwrap_or(v.len());
            let (num, unit) = v.split_at(split);
            let n: f32 = num.parse().ok()?;
            if !n.is_finite() || n < 0.0 {
                return None;
            }
            match unit.trim() {
                "px" => Size::Px(n),
                "" if n == 0.0 => Size::Px(0.0),
                "pt" => Size::Px(n * 4.0 / 3.0),
                "pc" => Size::Px(n * 16.0),
                "em" => Size::Parent(n),
                "%" => Size::Parent(n / 100.0),
                "rem" => Size::Root(n),
                "ex" | "ch" => Size::Parent(n / 2.0),
                "mm" => Size::Px(n * 96.0 / 25.4),
                "cm" => Size::Px(n * 96.0 / 2.54),
                "in" => Size::Px(n * 96.0),
                // vw/vh and calc() cannot be resolved without a viewport.
                _ => return None,
            }
        }
    })
}

/// `font: [style] [variant] [weight] size[/line-height] family`.
fn parse_font_shorthand(v: &str, out: &mut Vec<Value>) {
    let mut italic = false;
    let mut weight = 400;
    let mut words = v.split_whitespace();
    for w in words.by_ref() {
        match w {
            "italic" | "oblique" => italic = true,
            "normal" | "small-caps" => {}
            "bold" | "bolder" => weight = 700,
            "lighter" => weight = 300,
            _ => {
                if let Some(Value::Weight(n)) = parse_weight(w) {
                    weight = n;
                    continue;
                }
                let size = w.split('/').next().unwrap_or(w);
                if let Some(s) = parse_size(size) {
                    out.push(Value::Size(s));
                    out.push(Value::Weight(weight));
                    out.push(Value::Italic(italic));
                    let rest: Vec<&str> = words.skip_while(|w| w.starts_with('/')).collect();
                    out.extend(first_family(&rest.join(" ")).map(Value::Family));
                }
                return;
            }
        }
    }
}

fn first_family(v: &str) -> Option<String> {
    let f = v.split(',').next()?.trim().trim_matches(['"', '\'']).trim();
    (!f.is_empty()).then(|| f.to_ascii_lowercase())
}

/// Parses `#rgb`, `#rrggbb(aa)`, `rgb(…)`/`rgba(…)` and common colour names.
pub fn parse_color(v: &str) -> Option<u32> {
    let v = v.trim().to_ascii_lowercase();
    if let Some(hex) = v.strip_prefix('#') {
        let digits: Vec<u32> = hex.chars().map(|c| c.to_digit(16)).collect::<Option<_>>()?;
        return match digits.len() {
            3 | 4 => Some((digits[0] * 17) << 16 | (digits[1] * 17) << 8 | (digits[2] * 17)),
            6 | 8 => Some(digits[..6].iter().fold(0, |acc, d| acc << 4 | d)),
            _ => None,
        };
    }
    if let Some(args) = v
        .strip_prefix("rgba(")
        .or_else(|| v.strip_prefix("rgb("))
        .and_then(|a| a.strip_suffix(')'))
    {
        let parts: Vec<u32> = args
            .split([',', ' ', '/'])
            .filter(|p| !p.is_empty())
            .take(3)
            .map(|p| {
                if let Some(pct) = p.strip_suffix('%') {
                    pct.parse::<f32>().ok().map(|x| (x * 2.55).round() as u32)
                } else {
                    p.parse::<f32>().ok().map(|x| x.round() as u32)
                }
            })
            .collect::<Option<_>>()?;
        if parts.len() == 3 {
            return Some(parts[0].min(255) << 16 | parts[1].min(255) << 8 | parts[2].min(255));
        }
        return None;
    }
    Some(match v.as_str() {
        "black" => 0x000000,
        "white" => 0xffffff,
        "red" => 0xff0000,
        "green" => 0x008000,
        "blue" => 0x0000ff,
        "navy" => 0x000080,
        "maroon" => 0x800000,
        "gray" | "grey" => 0x808080,
        "silver" => 0xc0c0c0,
        "darkgray" | "darkgrey" => 0xa9a9a9,
        "dimgray" | "dimgrey" => 0x696969,
        "orange" => 0xffa500,
        "purple" => 0x800080,
        "teal" => 0x008080,
        "olive" => 0x808000,
        "darkred" => 0x8b0000,
        "darkblue" => 0x00008b,
        _ => return None,
    })
}

/// A rule of the page's sheets, reduced to the declarations the cascade understands.
struct IndexedRule<'a> {
    selector: simplecss::Selector<'a>,
    decls: Vec<Decl>,
}

/// The page's rules, bucketed by the key of their rightmost compound selector.
struct Cascade<'a> {
    /// Rules in specificity order (stable: source order among equals).
    rules: Vec<IndexedRule<'a>>,
    by_id: HashMap<String, Vec<usize>>,
    by_class: HashMap<String, Vec<usize>>,
    by_tag: HashMap<String, Vec<usize>>,
    universal: Vec<usize>,
    needs_siblings: bool,
}

impl<'a> Cascade<'a> {
    fn new(sheets: &'a [String]) -> Cascade<'a> {
        let mut c = Cascade {
            rules: Vec::new(),
            by_id: HashMap::new(),
            by_class: HashMap::new(),
            by_tag: HashMap::new(),
            universal: Vec::new(),
            needs_siblings: false,
        };
        if sheets.is_empty() {
            return c;
        }
        // simplecss reports errors with positions counted from the start of its input, which
        // is quadratic on large sheets: feed it one relevant rule at a time instead, then order
        // all rules by specificity (stable, so source order breaks ties).
        let mut rules = Vec::new();
        for text in sheets {
            for chunk in relevant_rules(text) {
                rules.extend(StyleSheet::parse(chunk).rules);
            }
        }
        rules.sort_by_key(|r| r.selector.specificity());
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
    fn element_style(
        &self,
        ctx: &MatchContext<'_>,
        el: El,
        parent: &Style,
        matched: &mut Vec<usize>,
    ) -> (Style, Option<String>) {
        let mut s = *parent;
        let mut family: Option<String> = None;
        let Some(tag) = ctx.tag(el) else {
            return (s, family);
        };
        ua_style(tag, ctx.attribute(el, "href").is_some(), parent, &mut s);
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
            self.matching(ctx, el, matched);
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
    fn matching(&self, ctx: &MatchContext<'_>, el: El, out: &mut Vec<usize>) {
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
        out.retain(|&r| self.rules[r].selector.matches(&ctx.bind(el)));
    }
}

/// The top-level rule sets of a sheet whose declarations may touch a property of [`Style`];
/// at-rules (`@media`, `@font-face`, `@import` …) are skipped with their blocks.
fn relevant_rules(css: &str) -> Vec<&str> {
    let b = css.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut start = 0;
    let mut depth = 0usize;
    let mut at_rule = false;
    let mut block_start = 0;
    let mut seen = false;
    while i < b.len() {
        if depth == 0 && !b[i].is_ascii_whitespace() && b[i] != b'/' && b[i] != b'@' {
            seen = true;
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
            b'@' if depth == 0 && !seen => {
                at_rule = true;
                seen = true;
            }
            b';' if depth == 0 && at_rule => {
                at_rule = false;
                seen = false;
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
                        let decls = &css[block_start..i];
                        if decls.contains("font")
                            || decls.contains("decoration")
                            || decls.contains("color")
                        {
                            out.push(&css[start..=i]);
                        }
                    }
                    at_rule = false;
                    seen = false;
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

enum Key {
    Id(String),
    Class(String),
    Tag(String),
    Universal,
}

/// The most selective key of the rightmost compound of a selector, and whether the selector
/// needs sibling information.
fn rightmost_key(selector: &str) -> Option<(Key, bool)> {
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

/// For each node, its previous element sibling (0 when none).
fn previous_element_siblings(tree: &ReducedTree) -> Vec<NodeId> {
    let mut prev = vec![0; tree.nodes.len()];
    for node in &tree.nodes {
        let mut last = 0;
        for &c in &node.children {
            if tree.node(c).tag().is_some() {
                prev[c as usize] = last;
                last = c;
            }
        }
    }
    prev
}

struct MatchContext<'t> {
    tree: &'t ReducedTree,
    prev: &'t [NodeId],
}

impl<'t> MatchContext<'t> {
    fn bind(&'t self, el: El) -> Bound<'t> {
        Bound { ctx: self, el }
    }

    /// The tag of an element (`None` for text).
    fn tag(&self, el: El) -> Option<&'t str> {
        match el {
            El::Node { id, .. } => self.tree.node(id).tag(),
            El::Ancestor(i) => self.tree.ancestors.get(i as usize).map(|a| a.tag.as_str()),
            El::Body => Some("body"),
            El::Html => Some("html"),
        }
    }

    /// The value of an attribute of an element.
    fn attribute(&self, el: El, name: &str) -> Option<&'t str> {
        match el {
            El::Node { id, .. } => self.tree.node(id).attribute(name),
            El::Ancestor(i) => self
                .tree
                .ancestors
                .get(i as usize)?
                .attributes
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str()),
            El::Body | El::Html => None,
        }
    }

    /// The element above the candidate's top-level nodes.
    fn above_root(&self) -> El {
        match self.tree.ancestors.len() {
            0 => El::Body,
            n => El::Ancestor((n - 1).min(u16::MAX as usize) as u16),
        }
    }
}

/// An element of the reduced tree, one of the candidate's enclosing elements on the page, or
/// one of the stand-in ancestors used when those are unknown.
#[derive(Clone, Copy)]
enum El {
    Node {
        id: NodeId,
        hops: u16,
    },
    /// Index into [`ReducedTree::ancestors`].
    Ancestor(u16),
    Body,
    Html,
}

struct Bound<'t> {
    ctx: &'t MatchContext<'t>,
    el: El,
}

impl simplecss::Element for Bound<'_> {
    fn parent_element(&self) -> Option<Self> {
        let el = match self.el {
            El::Node { id, hops } => {
                if hops >= MAX_ANCESTOR_HOPS {
                    return None;
                }
                let parent = self.ctx.tree.node(id).parent;
                if parent == 0 || parent == id {
                    self.ctx.above_root()
                } else {
                    El::Node {
                        id: parent,
                        hops: hops + 1,
                    }
                }
            }
            El::Ancestor(0) => return None,
            El::Ancestor(i) => El::Ancestor(i - 1),
            El::Body => El::Html,
            El::Html => return None,
        };
        Some(Bound { ctx: self.ctx, el })
    }

    fn prev_sibling_element(&self) -> Option<Self> {
        match self.el {
            El::Node { id, hops } => {
                let p = *self.ctx.prev.get(id as usize)?;
                (p != 0).then_some(Bound {
                    ctx: self.ctx,
                    el: El::Node { id: p, hops },
                })
            }
            _ => None,
        }
    }

    fn has_local_name(&self, name: &str) -> bool {
        match self.el {
            El::Node { .. } | El::Ancestor(_) => self.ctx.tag(self.el) == Some(name),
            El::Body => name == "body",
            El::Html => name == "html",
        }
    }

    fn attribute_matches(&self, local_name: &str, operator: AttributeOperator<'_>) -> bool {
        match (self.ctx.attribute(self.el, local_name), operator) {
            (Some(v), AttributeOperator::Contains(c)) => v.split_ascii_whitespace().any(|x| x == c),
            (Some(v), op) => op.matches(v.trim()),
            (None, _) => false,
        }
    }

    fn pseudo_class_matches(&self, class: PseudoClass<'_>) -> bool {
        match (self.el, class) {
            (El::Node { id, .. }, PseudoClass::FirstChild) => {
                self.ctx.prev.get(id as usize) == Some(&0)
            }
            (El::Node { id, .. }, PseudoClass::Link) => {
                let n = self.ctx.tree.node(id);
                n.tag() == Some("a") && n.attribute("href").is_some()
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::AnalysisOptions;
    use crate::analyze::tree::NodeKind;

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
        use crate::analyze::tree::AncestorElement;
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
}
