//! A first section tree from heading tags and enumeration prefixes.
//!
//! Headings are blocks inside `h1`–`h6` and blocks whose enumeration prefix is part of a
//! sequence (at least two items in valid steps). Nesting follows the heading-tag level and,
//! for enumerations, their class: a class already open closes back to its level, a new class
//! opens one level deeper. (The visual hierarchy of styles is a later stage that replaces the
//! classification below; the tree building stays.)

use std::collections::HashMap;

use super::blocks::{Block, BlockKind};
use super::enumeration::{EnumClass, Enumeration};
use crate::output::Section;

/// Longest block (in words) that counts as a numbered title rather than a numbered clause.
const MAX_TITLE_WORDS: usize = 12;

/// What a block is in the tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// A heading tag `h1`–`h6` of this level.
    TagHeading(u8),
    /// A short numbered block: a title.
    NumberedTitle(EnumClass),
    /// A long numbered block: a clause without its own title.
    NumberedClause(EnumClass),
    /// Body text.
    Text,
}

/// Decides the role of every block.
pub fn roles(blocks: &[Block]) -> Vec<Role> {
    let enums = resolve_enumerations(blocks);
    let confirmed = confirmed_enumerations(&enums);
    blocks
        .iter()
        .zip(enums.iter().zip(confirmed))
        .map(|(b, (e, ok))| match (b.kind, e) {
            (BlockKind::Heading(level), _) => Role::TagHeading(level),
            (_, Some(e)) if ok => {
                if b.words <= MAX_TITLE_WORDS && !b.link_only {
                    Role::NumberedTitle(e.class())
                } else if e.decoration == super::enumeration::Decoration::Plain
                    && e.values.len() == 1
                {
                    // "3 Werktage …": a bare number before a long text is no clause marker.
                    Role::Text
                } else {
                    Role::NumberedClause(e.class())
                }
            }
            _ => Role::Text,
        })
        .collect()
}

/// Builds the section tree of the blocks.
pub fn sections(blocks: &[Block]) -> Vec<Section> {
    let roles = roles(blocks);
    let enums = resolve_enumerations(blocks);
    let mut tree = TreeBuilder::default();
    for ((block, role), e) in blocks.iter().zip(&roles).zip(&enums) {
        let number = e
            .as_ref()
            .or(block.enumeration.as_ref())
            .map(|e| e.raw.clone());
        match role {
            Role::Text => tree.paragraph(&block.text),
            Role::TagHeading(level) => {
                tree.open(Key::Tag(*level), Some(block.text.clone()), number, None)
            }
            Role::NumberedTitle(class) => {
                tree.open(Key::Enum(*class), Some(block.text.clone()), number, None)
            }
            Role::NumberedClause(class) => {
                tree.open(Key::Enum(*class), None, number, Some(block.text.clone()))
            }
        }
    }
    tree.finish()
}

/// Picks the reading of ambiguous one-letter prefixes (`i)` after `h)` is a letter, `i)`
/// before `ii)` is Roman).
fn resolve_enumerations(blocks: &[Block]) -> Vec<Option<Enumeration>> {
    let mut last: HashMap<EnumClass, Enumeration> = HashMap::new();
    let mut out = Vec::with_capacity(blocks.len());
    for (i, b) in blocks.iter().enumerate() {
        let Some(e) = b.enumeration.clone() else {
            out.push(None);
            continue;
        };
        let chosen = match e.with_alternative() {
            None => e,
            Some(alt) => {
                let follows =
                    |x: &Enumeration| last.get(&x.class()).is_some_and(|p| x.is_successor_of(p));
                let next_follows = |x: &Enumeration| {
                    blocks[i + 1..]
                        .iter()
                        .filter_map(|b| b.enumeration.as_ref())
                        .find(|n| {
                            n.class() == x.class()
                                || n.with_alternative().is_some_and(|a| a.class() == x.class())
                        })
                        .is_some_and(|n| {
                            n.is_successor_of(x)
                                || n.with_alternative().is_some_and(|a| a.is_successor_of(x))
                        })
                };
                if follows(&e) {
                    e
                } else if follows(&alt)
                    || (alt.is_first() && next_follows(&alt) && !next_follows(&e))
                {
                    alt
                } else {
                    e
                }
            }
        };
        last.insert(chosen.class(), chosen.clone());
        out.push(Some(chosen));
    }
    out
}

/// An enumeration counts when it directly follows, or is directly followed by, another
/// enumeration of its class.
fn confirmed_enumerations(enums: &[Option<Enumeration>]) -> Vec<bool> {
    let mut by_class: HashMap<EnumClass, Vec<usize>> = HashMap::new();
    for (i, e) in enums.iter().enumerate() {
        if let Some(e) = e {
            by_class.entry(e.class()).or_default().push(i);
        }
    }
    let mut confirmed = vec![false; enums.len()];
    for positions in by_class.values() {
        for pair in positions.windows(2) {
            if let (Some(a), Some(b)) = (&enums[pair[0]], &enums[pair[1]]) {
                if b.is_successor_of(a) {
                    confirmed[pair[0]] = true;
                    confirmed[pair[1]] = true;
                }
            }
        }
    }
    confirmed
}

/// What opened a section, for deciding where the next heading goes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Key {
    Tag(u8),
    Enum(EnumClass),
}

struct Open {
    key: Key,
    /// Heading-tag sections rank by their level; enumerations rank just below the tag
    /// heading that contains them.
    rank: f32,
    section: Section,
}

#[derive(Default)]
struct TreeBuilder {
    top: Vec<Section>,
    stack: Vec<Open>,
}

impl TreeBuilder {
    fn paragraph(&mut self, text: &str) {
        if self.stack.is_empty() {
            // Text before the first heading: an untitled section.
            self.stack.push(Open {
                key: Key::Tag(0),
                rank: 0.0,
                section: new_section(None, None),
            });
        }
        if let Some(open) = self.stack.last_mut() {
            open.section.paragraphs.push(text.to_owned());
        }
    }

    fn open(
        &mut self,
        key: Key,
        title: Option<String>,
        number: Option<String>,
        paragraph: Option<String>,
    ) {
        // The untitled lead-in section never holds headings.
        if matches!(self.stack.as_slice(), [only] if only.key == Key::Tag(0)) {
            self.pop();
        }
        let rank = match key {
            Key::Tag(level) => {
                let level = f32::from(level);
                while self.stack.last().is_some_and(|o| o.rank >= level) {
                    self.pop();
                }
                level
            }
            Key::Enum(_) => {
                if let Some(pos) = self.stack.iter().rposition(|o| o.key == key) {
                    while self.stack.len() > pos {
                        self.pop();
                    }
                }
                let tag_rank = self
                    .stack
                    .iter()
                    .rev()
                    .find_map(|o| match o.key {
                        Key::Tag(l) => Some(f32::from(l)),
                        Key::Enum(_) => None,
                    })
                    .unwrap_or(0.0);
                tag_rank + 0.5
            }
        };
        let mut section = new_section(title, number);
        section.paragraphs.extend(paragraph);
        self.stack.push(Open { key, rank, section });
    }

    fn pop(&mut self) {
        if let Some(open) = self.stack.pop() {
            match self.stack.last_mut() {
                Some(parent) => parent.section.subsections.push(open.section),
                None => self.top.push(open.section),
            }
        }
    }

    fn finish(mut self) -> Vec<Section> {
        while !self.stack.is_empty() {
            self.pop();
        }
        set_levels(&mut self.top, 1);
        self.top
    }
}

fn new_section(title: Option<String>, number: Option<String>) -> Section {
    Section {
        title,
        number,
        level: 0,
        paragraphs: Vec::new(),
        subsections: Vec::new(),
    }
}

fn set_levels(sections: &mut [Section], level: u32) {
    for s in sections {
        s.level = level;
        set_levels(&mut s.subsections, level + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{AnalysisOptions, ReducedTree, blocks::blocks};

    fn tree(html: &str) -> Vec<Section> {
        let t = ReducedTree::build(html, &[0..html.len()], &AnalysisOptions::default()).unwrap();
        sections(&blocks(&t))
    }

    /// `title|number [children]` outline for compact assertions.
    fn outline(sections: &[Section]) -> String {
        sections
            .iter()
            .map(|s| {
                let mut out = s
                    .title
                    .clone()
                    .unwrap_or_else(|| format!("<{}>", s.number.clone().unwrap_or_default()));
                if !s.subsections.is_empty() {
                    out.push_str(&format!(" [{}]", outline(&s.subsections)));
                }
                out
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    #[test]
    fn heading_tags_nest_by_level() {
        let s = tree(
            "<h3>Terms</h3><h5>1. Lorem</h5><p>a</p><h6>1.1 Donec</h6><p>b</p><h6>1.2 In</h6><p>c</p><h5>2. Aenean</h5><p>d</p>",
        );
        assert_eq!(
            outline(&s),
            "Terms [1. Lorem [1.1 Donec, 1.2 In], 2. Aenean]"
        );
        assert_eq!(s[0].subsections[0].number.as_deref(), Some("1."));
        assert_eq!(s[0].subsections[0].subsections[1].level, 3);
        assert_eq!(s[0].subsections[0].paragraphs, ["a"]);
    }

    #[test]
    fn numbered_paragraphs_build_sections() {
        let s = tree(
            "<p>Intro text</p><p>§ 1 Geltungsbereich</p><p>(1) Diese Bedingungen gelten für alle Verträge zwischen uns und dem Kunden hier.</p>\
             <p>(2) Abweichende Bedingungen des Kunden gelten nicht, es sei denn wir stimmen zu.</p>\
             <p>§ 2 Vertragsschluss</p><p>Der Vertrag kommt zustande.</p>",
        );
        assert_eq!(
            outline(&s),
            "<>, § 1 Geltungsbereich [<(1)>, <(2)>], § 2 Vertragsschluss"
        );
        assert_eq!(s[0].title, None);
        assert_eq!(s[0].paragraphs, ["Intro text"]);
        assert!(s[1].subsections[0].paragraphs[0].starts_with("(1) Diese"));
        assert_eq!(s[2].paragraphs, ["Der Vertrag kommt zustande."]);
    }

    #[test]
    fn multi_level_numbers_and_single_numbers() {
        let s = tree(
            "<p>1. Allgemeines</p><p>1.1 Geltung</p><p>x</p><p>1.2 Änderungen</p><p>2. Preise</p><p>y</p><p>3 Werktage beträgt die Lieferzeit</p>",
        );
        assert_eq!(
            outline(&s),
            "1. Allgemeines [1.1 Geltung, 1.2 Änderungen], 2. Preise"
        );
        assert_eq!(s[1].paragraphs, ["y", "3 Werktage beträgt die Lieferzeit"]);
    }

    #[test]
    fn roman_and_letters() {
        let s = tree(
            "<p>I. Allgemeine Geschäftsbedingungen</p><p>a) eins</p><p>b) zwei</p><p>II. Kundeninformationen</p><p>text</p>",
        );
        assert_eq!(
            outline(&s),
            "I. Allgemeine Geschäftsbedingungen [a) eins, b) zwei], II. Kundeninformationen"
        );
        let s = tree("<p>h) acht</p><p>i) neun</p><p>j) zehn</p>");
        assert_eq!(s.len(), 3);
        let s = tree("<p>(i) one</p><p>(ii) two</p>");
        assert_eq!(outline(&s), "(i) one, (ii) two");
    }

    #[test]
    fn lone_numbers_are_text() {
        let s = tree("<p>1. Nur eine Zahl</p><p>text</p>");
        assert_eq!(outline(&s), "<>");
        assert_eq!(s[0].paragraphs.len(), 2);
    }
}
