//! The stack walk that nests headings, numbered titles, list items and text into sections.

use super::*;

/// What opened a section, for deciding where the next block goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Kind {
    /// Text before the first heading.
    Lead,
    /// A heading of a visual level with its enumeration class.
    Heading {
        rank: u32,
        class: Option<EnumClass>,
        document: bool,
        /// From a heading tag.
        tagged: bool,
        block: usize,
    },
    /// A list item.
    Item { li: NodeId, depth: u8 },
    /// Text after a list, in the same parent.
    Continuation { li: Option<NodeId> },
}

pub(super) struct Open {
    pub(super) kind: Kind,
    pub(super) section: Section,
}

#[derive(Default)]
pub(super) struct TreeBuilder {
    pub(super) top: Vec<Section>,
    pub(super) stack: Vec<Open>,
    /// Order in which enumeration classes first opened a heading, per level.
    pub(super) first_seen: HashMap<(u32, EnumClass), usize>,
}

/// A heading to open in the tree.
#[derive(Debug, Clone, Copy)]
pub(super) struct HeadingSpec {
    pub(super) rank: u32,
    pub(super) class: Option<EnumClass>,
    pub(super) document: bool,
    /// From a heading tag (two tags of one level are siblings, document title or not).
    pub(super) tagged: bool,
    /// Index of its block.
    pub(super) block: usize,
    /// The numbered heading whose sequence continues after this one: it stays open.
    pub(super) anchor: Option<usize>,
}

/// Whether a section has no text of its own and only untitled items (a list under a title).
fn holds_only_a_list(section: &Section) -> bool {
    section.paragraphs.is_empty()
        && section.subsections.len() >= 2
        && section.subsections.iter().all(|s| s.title.is_none())
}

/// Whether `new` is a higher level than `open` in the same multi-level Arabic numbering
/// (`2.` after `1.1`).
pub(super) fn shallower(new: &EnumClass, open: &EnumClass) -> bool {
    new.kind == NumberKind::Arabic && open.kind == NumberKind::Arabic && new.depth < open.depth
}

impl TreeBuilder {
    pub(super) fn top_kind(&self) -> Option<Kind> {
        self.stack.last().map(|o| o.kind)
    }

    pub(super) fn paragraph(&mut self, block: &Block) {
        loop {
            match self.top_kind() {
                Some(Kind::Item { li, .. }) if Some(li) != block.list_item => self.pop(),
                Some(Kind::Continuation { li }) if li != block.list_item => self.pop(),
                _ => break,
            }
        }
        match self.stack.last() {
            None => self.push(Kind::Lead, new_section(None, None)),
            Some(open)
                if !open.section.subsections.is_empty()
                    && !matches!(open.kind, Kind::Continuation { .. }) =>
            {
                self.push(
                    Kind::Continuation {
                        li: block.list_item,
                    },
                    new_section(None, None),
                )
            }
            _ => {}
        }
        if let Some(open) = self.stack.last_mut() {
            open.section.paragraphs.push(block.text.clone());
        }
    }

    /// Opens the item section of `block`, the first block of a list item; `titled`: the
    /// block is the item's title, not its first paragraph.
    pub(super) fn item(&mut self, block: &Block, number: Option<String>, titled: bool) {
        if !titled && self.in_a_clause() {
            self.paragraph(block);
            return;
        }
        let depth = block.list_depth;
        loop {
            match self.top_kind() {
                Some(Kind::Continuation { .. }) => self.pop(),
                Some(Kind::Item { depth: d, .. }) if d >= depth => self.pop(),
                _ => break,
            }
        }
        if self.stack.is_empty() {
            self.push(Kind::Lead, new_section(None, None));
        }
        let mut section = new_section(titled.then(|| block.text.clone()), number);
        if !titled {
            section.paragraphs.push(block.text.clone());
        }
        let li = block.list_item.unwrap_or(0);
        self.push(Kind::Item { li, depth }, section);
    }

    /// Whether the open section's text holds a numbered clause and nothing has opened under
    /// it yet: a list there is part of that clause ("(1) Wir können das Angebot annehmen,
    /// indem wir <ul>…</ul>", then "(2) …"), so its items are the section's paragraphs and
    /// the clauses after it continue the section's own sequence — an item subsection would
    /// have put them in an untitled section of their own, out of the clause tree.
    fn in_a_clause(&self) -> bool {
        self.stack.last().is_some_and(|open| {
            matches!(open.kind, Kind::Heading { .. } | Kind::Lead)
                && open.section.subsections.is_empty()
                && open
                    .section
                    .paragraphs
                    .iter()
                    .any(|p| crate::structure::clauses::opens_clause(p))
        })
    }

    pub(super) fn open(&mut self, h: HeadingSpec, title: String, number: Option<String>) {
        let HeadingSpec {
            rank,
            class,
            document,
            tagged,
            ..
        } = h;
        let floor = self.floor(h.anchor);
        while self.stack.len() > floor
            && self
                .top_kind()
                .is_some_and(|k| !matches!(k, Kind::Heading { .. }))
        {
            self.pop();
        }
        // A heading that holds nothing but a list (a table of contents under "Contents") does
        // not take the numbered titles in body style that follow as its sections.
        if rank == BODY_RANK
            && self.stack.len() > floor
            && self.stack.last().is_some_and(|o| {
                matches!(o.kind, Kind::Heading { rank: r, .. } if r != BODY_RANK)
                    && holds_only_a_list(&o.section)
            })
        {
            self.pop();
        }
        // Within a visual level the decoration does not matter (`7:` and `8.` are siblings);
        // numbered titles in body style keep it (`§ 1` and `1.` are different levels).
        let same = |a: &EnumClass, b: &EnumClass| {
            a == b || (rank != BODY_RANK && a.kind == b.kind && a.depth == b.depth)
        };
        let same_class = class.and_then(|c| {
            self.stack.iter().rposition(|o| {
                matches!(o.kind, Kind::Heading { rank: r, class: Some(oc), .. } if r == rank && same(&c, &oc))
            })
        });
        if let Some(pos) = same_class.filter(|&p| p >= floor) {
            while self.stack.len() > pos {
                self.pop();
            }
        } else {
            while self.stack.len() > floor
                && self.top_kind().is_some_and(|open| self.closes(&h, &open))
            {
                self.pop();
            }
        }
        if let Some(c) = class {
            let next = self.first_seen.len();
            self.first_seen.entry((rank, c)).or_insert(next);
        }
        self.push(
            Kind::Heading {
                rank,
                class,
                document,
                tagged,
                block: h.block,
            },
            new_section(Some(title), number),
        );
    }

    /// How many open sections a heading anchored at block `anchor` leaves open: the anchor
    /// (and everything below it) is never closed by the heading.
    fn floor(&self, anchor: Option<usize>) -> usize {
        anchor
            .and_then(|a| {
                self.stack
                    .iter()
                    .rposition(|o| matches!(o.kind, Kind::Heading { block, .. } if block == a))
            })
            .map_or(0, |p| p + 1)
    }

    /// Whether the new heading `h` closes the open heading `open` (when no open heading of
    /// its own enumeration class is there to return to).
    fn closes(&self, h: &HeadingSpec, open: &Kind) -> bool {
        let Kind::Heading {
            rank: r,
            class: c,
            document: d,
            tagged: t,
            ..
        } = *open
        else {
            return false;
        };
        r > h.rank
            || (r == h.rank
                // The headings of a document's level belong to the document.
                && (!d || h.document || (t && h.tagged))
                && match (h.class, c) {
                    (None, _) => true,
                    // A class seen before the open one is the outer level (`§ 3` after the
                    // `1)` steps inside `§ 2`).
                    (Some(n), Some(o)) => {
                        shallower(&n, &o) || (n != o && self.older_class(h.rank, &n, &o))
                    }
                    // A numbered heading after an unnumbered one of the same level is its
                    // sibling (`Preamble`, `1: Definitions`).
                    (Some(_), None) => true,
                })
    }

    /// Whether class `a` first opened a heading of level `rank` before class `b` did.
    pub(super) fn older_class(&self, rank: u32, a: &EnumClass, b: &EnumClass) -> bool {
        let order = |c: &EnumClass| self.first_seen.get(&(rank, *c)).copied();
        order(a).is_some_and(|x| order(b).is_none_or(|y| x < y))
    }

    pub(super) fn push(&mut self, kind: Kind, section: Section) {
        self.stack.push(Open { kind, section });
    }

    pub(super) fn pop(&mut self) {
        if let Some(open) = self.stack.pop() {
            match self.stack.last_mut() {
                Some(parent) => parent.section.subsections.push(open.section),
                None => self.top.push(open.section),
            }
        }
    }

    pub(super) fn finish(mut self) -> Vec<Section> {
        while !self.stack.is_empty() {
            self.pop();
        }
        set_levels(&mut self.top);
        self.top
    }
}

pub(super) fn new_section(title: Option<String>, number: Option<String>) -> Section {
    Section::new(title, number, 0)
}

/// Sets `level` on every section (iteratively: lists can nest deeply).
pub(super) fn set_levels(sections: &mut [Section]) {
    let mut todo: Vec<(&mut Section, u32)> = sections.iter_mut().map(|s| (s, 1)).collect();
    while let Some((s, level)) = todo.pop() {
        s.level = level;
        todo.extend(s.subsections.iter_mut().map(|c| (c, level + 1)));
    }
}
