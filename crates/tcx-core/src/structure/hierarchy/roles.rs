//! The role of every block: heading of a visual level, numbered title, list item or text.

use super::*;

/// Decides the role of every block; with the reduced tree the blocks come from, untagged
/// headline styles also pass the HEPS C1 check ([`includes_upper_headings`]).
///
/// The phases, in order of evidence (each may only remove what an earlier one proposed, except
/// the document titles, which the vocabulary adds, and the plain title lines of phase 8):
/// 1. [`Candidates::new`]: enumerations, tables of contents and headline candidates by look;
/// 2. [`Candidates::reject_untagged_groups`]: the HEPS set filters and heading-tag precedence;
/// 3. [`Candidates::drop_heads_of_nothing`]: a candidate directly followed by its own style;
/// 4. [`Candidates::rank_levels`]: prominence order and HEPS C1;
/// 5. [`DocumentTitles::find`]: several documents on one page share a level;
/// 6. [`Candidates::role`]: the role of each block;
/// 7. [`a_repeated_title_is_one`]: a title printed twice in a row is one;
///    [`lead_title_holds_the_rest`]: a single `h1` opening the content is the root;
/// 8. [`Candidates::plain_title_lines`]: plain lines that read as titles, where nothing else
///    heads the sections.
pub fn roles_in(tree: Option<&ReducedTree>, blocks: &[Block]) -> Vec<Role> {
    let mut c = Candidates::new(blocks);
    c.reject_untagged_groups();
    c.drop_heads_of_nothing();
    let ranks = c.rank_levels(tree);
    let docs = DocumentTitles::find(&c, &ranks);
    let numbered_titles = c.numbered_titles();
    let mut seen_items: HashSet<NodeId> = HashSet::new();
    let mut roles: Vec<Role> = (0..blocks.len())
        .map(|i| c.role(i, &ranks, &docs, numbered_titles, &mut seen_items))
        .collect();
    a_repeated_title_is_one(blocks, &mut roles);
    if docs.kinds < 2 {
        lead_title_holds_the_rest(blocks, &mut roles);
    }
    title_over_numbered_peers(blocks, &mut roles);
    an_empty_opening_heading_is_text(blocks, &mut roles);
    c.plain_title_lines(&mut roles);
    roles
}

/// What the role decision knows about each block of the page, refined phase by phase.
pub(super) struct Candidates<'b> {
    blocks: &'b [Block],
    /// The enumeration of each block, ambiguous prefixes resolved over the page.
    enums: Vec<Option<Enumeration>>,
    /// Entries of a table of contents or a list of titles: text, never headings.
    toc: Vec<bool>,
    /// Enumerations confirmed by a sequence (tables of contents do not count).
    confirmed: Vec<bool>,
    /// The headline group of each block that may head a section.
    group: Vec<Option<GroupKey>>,
}

/// Rank (visual level, lower is more prominent) of each surviving headline group.
pub(super) type Ranks = HashMap<GroupKey, u32>;

impl<'b> Candidates<'b> {
    /// Enumerations, tables of contents and the headline candidates by look.
    pub(super) fn new(blocks: &'b [Block]) -> Self {
        let enums = resolve_enumerations(blocks);
        let mut toc = toc_mask(blocks, &enums);
        for i in heading_list_entries(blocks) {
            toc[i] = true;
        }
        let counted: Vec<Option<Enumeration>> = enums
            .iter()
            .zip(&toc)
            .map(|(e, &t)| if t { None } else { e.clone() })
            .collect();
        let confirmed = confirmed_enumerations(&counted);
        let body = body_style(blocks);
        let group = blocks
            .iter()
            .zip(&toc)
            .zip(&confirmed)
            .map(|((b, &t), &numbered)| {
                if t {
                    None
                } else {
                    candidate_key(b, &body, numbered)
                }
            })
            .collect();
        Candidates {
            blocks,
            enums,
            toc,
            confirmed,
            group,
        }
    }

    /// HEPS set filters (C2–C4) for untagged groups, and heading-tag precedence: where the
    /// author marked headings up with tags, emphasis is emphasis, so untagged styles head
    /// sections only on pages with fewer than [`MIN_TAG_HEADINGS`] tag headings.
    pub(super) fn reject_untagged_groups(&mut self) {
        let mut groups: HashMap<GroupKey, Vec<usize>> = HashMap::new();
        for (i, k) in self.group.iter().enumerate() {
            if let Some(k) = k {
                groups.entry(*k).or_default().push(i);
            }
        }
        // The same title twice in a row (a page header and the article's own title) counts
        // once.
        let g = &self.group;
        let repeated = |i: usize| {
            i > 0
                && g[i].is_some()
                && g[i - 1].is_some()
                && fold(&self.blocks[i].text) == fold(&self.blocks[i - 1].text)
        };
        let tagged = |i: &usize| !repeated(*i) && g[*i].is_some_and(|k| k.is_tagged());
        // Tag headings that only open the content (the page's title, a site header's title
        // above the document's own) say nothing about how the sections are marked up: with
        // none after the first text, the sections are untagged.
        let first_text = g.iter().position(Option::is_none).unwrap_or(g.len());
        let tag_headings: Vec<usize> = (0..g.len()).filter(tagged).collect();
        // Tag headings after the first text that all name a whole document (a page holding its
        // AGB, Widerrufsbelehrung and Datenschutzerklärung under one `h2` each, under a page
        // title that names none) mark the documents, not their sections: those are then set
        // in bold, and a bold style may head them.
        let later: Vec<usize> = tag_headings
            .iter()
            .copied()
            .filter(|&i| i >= first_text)
            .collect();
        let sections_tagged = tag_headings.len() >= MIN_TAG_HEADINGS
            && !later.is_empty()
            && !later.iter().all(|&i| is_document_title(&self.blocks[i]));
        let rejected: HashSet<GroupKey> = groups
            .iter()
            .filter(|(k, members)| {
                !k.is_tagged() && (sections_tagged || !group_ok(self.blocks, g, members))
            })
            .map(|(k, _)| *k)
            .collect();
        self.drop_groups(&rejected);
    }

    /// A non-tag candidate directly followed by one of its own style heads nothing, unless
    /// it is a numbered title of a confirmed sequence followed by an unnumbered title
    /// (`9. Regelungen` then `Dauer der Vereinbarung`: the sub-titles belong to it). Nor does
    /// one that ends the content: a bold closing line ("Ende der Widerrufsbelehrung").
    pub(super) fn drop_heads_of_nothing(&mut self) {
        let enums = &self.enums;
        let numbered_parent = |i: usize| {
            self.confirmed[i]
                && enums[i].is_some()
                && enums.get(i + 1).is_some_and(|e| {
                    e.as_ref().map(Enumeration::class) != enums[i].as_ref().map(Enumeration::class)
                })
        };
        let drop: Vec<usize> = (0..self.group.len())
            .filter(|&i| {
                self.group[i].is_some_and(|k| {
                    !k.is_tagged()
                        && (self.group.get(i + 1).copied().flatten() == Some(k)
                            || i + 1 == self.group.len())
                        && !is_document_title(&self.blocks[i])
                        && !numbered_parent(i)
                })
            })
            .collect();
        for i in drop {
            self.group[i] = None;
        }
    }

    /// Orders the surviving groups by prominence (size tier, weight, underline, italics,
    /// heading tag, size, document order) and, with the reduced tree, drops untagged groups that fail HEPS
    /// C1 level by level from the most prominent (a bold line inside every section is no
    /// level). Ranks are odd: the even rank above each level is free for a page title.
    pub(super) fn rank_levels(&mut self, tree: Option<&ReducedTree>) -> Ranks {
        let mut keys: Vec<(GroupKey, usize)> = Vec::new();
        for (i, k) in self.group.iter().enumerate() {
            if let Some(k) = k
                && !keys.iter().any(|(x, _)| x == k)
            {
                keys.push((*k, i));
            }
        }
        let tiers = size_tiers(&keys.iter().map(|(k, _)| k.style.size).collect::<Vec<_>>());
        let tier: HashMap<GroupKey, usize> = keys.iter().map(|(k, _)| *k).zip(tiers).collect();
        keys.sort_by(|(a, ai), (b, bi)| {
            tier[a]
                .cmp(&tier[b])
                .then(b.style.weight.cmp(&a.style.weight))
                .then(b.style.underline.cmp(&a.style.underline))
                .then(b.style.italic.cmp(&a.style.italic))
                .then(tag_order(a.tag_level).cmp(&tag_order(b.tag_level)))
                .then(b.style.size.total_cmp(&a.style.size))
                .then(ai.cmp(bi))
        });
        if let Some(tree) = tree {
            let dropped = self.fail_upper_headings(tree, &keys);
            keys.retain(|(k, _)| !dropped.contains(k));
            self.drop_groups(&dropped);
        }
        keys.iter()
            .enumerate()
            .map(|(r, (k, _))| (*k, 2 * r as u32 + 1))
            .collect()
    }

    /// The untagged groups whose front nodes hold headings of a more prominent group (C1).
    fn fail_upper_headings(
        &self,
        tree: &ReducedTree,
        keys: &[(GroupKey, usize)],
    ) -> HashSet<GroupKey> {
        let spans = subtree_ends(tree);
        let mut upper: Vec<NodeId> = Vec::new();
        let mut dropped = HashSet::new();
        for (k, _) in keys {
            let members: Vec<usize> = (0..self.group.len())
                .filter(|&i| self.group[i] == Some(*k))
                .collect();
            if !k.is_tagged()
                && includes_upper_headings(tree, &spans, self.blocks, &members, &upper)
            {
                dropped.insert(*k);
                continue;
            }
            upper.extend(members.iter().map(|&i| self.blocks[i].node));
            upper.sort_unstable();
        }
        dropped
    }

    fn drop_groups(&mut self, groups: &HashSet<GroupKey>) {
        if groups.is_empty() {
            return;
        }
        for g in self.group.iter_mut() {
            if g.is_some_and(|k| groups.contains(&k)) {
                *g = None;
            }
        }
    }

    /// The rank of block `i`'s group, when it survived.
    fn rank(&self, i: usize, ranks: &Ranks) -> Option<u32> {
        self.group[i].and_then(|k| ranks.get(&k).copied())
    }

    /// Where the author numbered the heading tags, numbered lines without a tag are the
    /// clauses inside those sections ("3.1 …" under an `h2` "3. …"), not titles.
    pub(super) fn numbered_titles(&self) -> bool {
        let numbered_tags = (0..self.blocks.len())
            .filter(|&i| self.group[i].is_some_and(|k| k.is_tagged()) && self.enums[i].is_some())
            .count();
        numbered_tags < MIN_TAG_HEADINGS
    }

    /// The role of block `i` once every phase has run.
    fn role(
        &self,
        i: usize,
        ranks: &Ranks,
        docs: &DocumentTitles,
        numbered_titles: bool,
        seen_items: &mut HashSet<NodeId>,
    ) -> Role {
        let b = &self.blocks[i];
        let class = self.enums[i].as_ref().map(Enumeration::class);
        let heading = |rank, document| Role::Heading {
            rank,
            class,
            document,
        };
        if docs.page_title == Some(i) {
            return heading(docs.rank.unwrap_or(1).saturating_sub(1), true);
        }
        if docs.title[i] {
            let rank = match (self.rank(i, ranks), docs.rank) {
                (Some(o), Some(d)) => o.min(d),
                (o, d) => o.or(d).unwrap_or(1),
            };
            return heading(rank, true);
        }
        if let Some(rank) = self.rank(i, ranks) {
            return heading(rank, is_document_title(b) && !docs.demoted[i]);
        }
        if docs.repeat[i] && docs.kinds >= 2 {
            return heading(docs.rank.unwrap_or(1), false);
        }
        if let Some(li) = b.list_item {
            if b.kind == BlockKind::ListItem && seen_items.insert(li) {
                return Role::Item;
            }
            return Role::Text;
        }
        match &self.enums[i] {
            Some(e)
                if self.confirmed[i]
                    && numbered_titles
                    && is_title_shaped(b)
                    && !next_in_sequence_is_text(self.blocks, &self.enums, i, e) =>
            {
                Role::NumberedTitle(e.class())
            }
            _ => Role::Text,
        }
    }
}

impl Candidates<'_> {
    /// Phase 8, plain title lines: on a page whose sections have no heading of a visual
    /// level (at most the document's title is one), an unnumbered line set like the text that
    /// reads as a title ([`is_plain_title_line`]) heads a section below every visual level,
    /// when the page has at least [`MIN_PLAIN_TITLES`] such lines of distinct texts — the
    /// "Widerrufsrecht" / "Folgen des Widerrufs" lines of a withdrawal notice written as plain
    /// paragraphs. Where the author drew headings, plain lines are text.
    fn plain_title_lines(&self, roles: &mut [Role]) {
        let visual = roles
            .iter()
            .filter(|r| matches!(r, Role::Heading { .. }))
            .count();
        if visual > 1 {
            return;
        }
        let lines: Vec<usize> = (0..roles.len())
            .filter(|&i| {
                roles[i] == Role::Text
                    && !self.toc[i]
                    && self.enums[i].is_none()
                    && is_plain_title_line(self.blocks, i, i > 0 && roles[i - 1] == Role::Text)
            })
            .collect();
        // Like the HEPS set filters: titles come in numbers and do not repeat ("Advertisement"
        // three times is furniture, a lone "By" or "Shares" is no section structure).
        let texts: Vec<String> = lines
            .iter()
            .map(|&i| self.blocks[i].text.to_lowercase())
            .collect();
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for t in &texts {
            *counts.entry(t.as_str()).or_default() += 1;
        }
        let unique: Vec<usize> = lines
            .iter()
            .zip(&texts)
            .filter(|(_, t)| counts.get(t.as_str()) == Some(&1))
            .map(|(&i, _)| i)
            .collect();
        if unique.len() < MIN_PLAIN_TITLES {
            return;
        }
        for i in unique {
            roles[i] = Role::Heading {
                rank: BODY_RANK,
                class: None,
                document: false,
            };
        }
    }
}

/// A block that can be a numbered title in body style: short, not a `(1)` clause, not a
/// sentence (a numbered question is a title: "3. What data do we collect?"), not a piece of
/// a sentence ([`continues_a_sentence`]), not only a link.
pub(super) fn is_title_shaped(b: &Block) -> bool {
    let question = is_question(&b.text);
    !is_numbered_clause(b)
        && (b.words <= MAX_TITLE_WORDS || (question && b.words <= MAX_QUESTION_TITLE_WORDS))
        && (!is_sentence(&b.text, b.words) || question)
        && !continues_a_sentence(b)
        && !b.link_only
        && matches!(
            b.kind,
            BlockKind::Paragraph | BlockKind::TableCell | BlockKind::Heading(_)
        )
}

/// Several documents on one page (AGB, Widerrufsbelehrung, Muster-Widerrufsformular …):
/// their titles share the level of the first one.
pub(super) struct DocumentTitles {
    /// Blocks promoted to document titles.
    title: Vec<bool>,
    /// Titles naming the same kind of document as the title before them ("AGB", then "AGB
    /// der Muster GmbH"): that document's own heading, on its visual level.
    repeat: Vec<bool>,
    /// Titles named like a document that look less prominent than the first document title:
    /// sections of that document (visual evidence outranks the vocabulary).
    demoted: Vec<bool>,
    /// How many distinct kinds of document the page names.
    kinds: usize,
    /// The rank of the first document title.
    rank: Option<u32>,
    /// A page title over the documents, when there is one.
    page_title: Option<usize>,
}

impl DocumentTitles {
    /// Finds the document titles. Untagged ones count only when the page names at least two
    /// kinds of document: a single one is left to the visual rules.
    pub(super) fn find(c: &Candidates<'_>, ranks: &Ranks) -> Self {
        let blocks = c.blocks;
        let named: Vec<bool> = (0..blocks.len())
            .map(|i| {
                let b = &blocks[i];
                !c.toc[i]
                    && is_document_title(b)
                    && (c.group[i].is_some()
                        || (b.kind == BlockKind::Paragraph && b.uniform && b.words <= 6))
            })
            .collect();
        let kinds: HashSet<String> = (0..blocks.len())
            .filter(|&i| named[i])
            .filter_map(|i| document_kind(&blocks[i]))
            .collect();
        let kinds = kinds.len();
        let mut previous_kind: Option<String> = None;
        let mut repeat = vec![false; blocks.len()];
        let mut title: Vec<bool> = (0..blocks.len())
            .map(|i| {
                if !named[i] {
                    return false;
                }
                let kind = document_kind(&blocks[i]);
                repeat[i] = kind.is_some() && kind == previous_kind;
                previous_kind = kind;
                !repeat[i] && (kinds >= 2 || c.group[i].is_some_and(|k| k.is_tagged()))
            })
            .collect();
        // A first title followed at once by a smaller one of its own kind ("AGB" as the `h1`,
        // then the `h2`s "Allgemeine Geschäftsbedingungen", "Widerrufsbelehrung",
        // "Muster-Widerrufsformular") is the page's title: the documents stand on the second
        // one's level, under it. So is a theme's `h1` "Datenschutz" over the document's own
        // `h1` "Datenschutzerklärung".
        let lead_title = title.iter().position(|&t| t).filter(|&d| {
            repeat.get(d + 1) == Some(&true)
                && (looks_above(&blocks[d], &blocks[d + 1])
                    || (blocks[d].kind == BlockKind::Heading(1)
                        && blocks[d + 1].kind == BlockKind::Heading(1)))
        });
        if let Some(d) = lead_title {
            title[d] = false;
            title[d + 1] = true;
            repeat[d + 1] = false;
        }
        // Visual evidence outranks the vocabulary: a title that looks less prominent than the
        // first document title ("Muster-Widerrufsformular" in the style of the
        // Widerrufsbelehrung's own sections) stays a section; the vocabulary only places titles
        // that look the same or more prominent, or that have no heading style of their own.
        let first = title.iter().position(|&t| t);
        // The looks of ordinary sections: headings after the first document title that are
        // not themselves named like a document ("Allgemeines", "Haftung").
        let section_looks: HashSet<GroupKey> = first.map_or_else(HashSet::new, |f| {
            (f + 1..blocks.len())
                .filter(|&s| !named[s])
                .filter_map(|s| c.group[s])
                .collect()
        });
        // Compared with the document title before it that stays one.
        let mut demoted = vec![false; blocks.len()];
        let mut above: Option<usize> = None;
        for i in 0..blocks.len() {
            demoted[i] = named[i]
                && !repeat[i]
                && above.is_some_and(|t| looks_above(&blocks[t], &blocks[i]))
                && c.group[i].is_some_and(|look| section_looks.contains(&look));
            if title[i] && !demoted[i] {
                above = Some(i);
            }
        }
        let title: Vec<bool> = (0..blocks.len()).map(|i| title[i] && !demoted[i]).collect();
        let rank = first.map(|i| c.rank(i, ranks).unwrap_or(1));
        // A first title naming several documents ("Widerrufsbelehrung & Widerrufsformular")
        // is the page's title over them, one level above.
        let page_title = lead_title.or_else(|| {
            first.and_then(|d| {
                page_title(c, ranks, d, rank).or_else(|| {
                    (kinds >= 2 && names_several_documents(&blocks[d].text)).then_some(d)
                })
            })
        });
        DocumentTitles {
            title,
            demoted,
            repeat,
            kinds,
            rank,
            page_title,
        }
    }
}

/// Whether `a` looks clearly more prominent than `b`: at least as large and heavy, and larger
/// or heavier (heading tags compare by their tag level first: `h2` above `h3`).
fn looks_above(a: &Block, b: &Block) -> bool {
    if let (BlockKind::Heading(x), BlockKind::Heading(y)) = (a.kind, b.kind) {
        return x < y;
    }
    let (s, t) = (&a.style, &b.style);
    s.size + 0.25 >= t.size
        && s.weight >= t.weight
        && (s.size > t.size + 0.25 || s.weight > t.weight)
}

/// A page title: the first heading of the page, untagged, not naming a document itself, on
/// the level the document titles take and before the first of them ("Widerrufsrecht für
/// Verbraucher" over "Widerrufsbelehrung" and "Muster-Widerrufsformular"): it holds them.
fn page_title(
    c: &Candidates<'_>,
    ranks: &Ranks,
    first_doc: usize,
    doc_rank: Option<u32>,
) -> Option<usize> {
    let first = c.group.iter().position(Option::is_some)?;
    let k = c.group[first]?;
    (first < first_doc
        && !k.is_tagged()
        && !is_document_title(&c.blocks[first])
        && ranks.get(&k).copied() == doc_rank)
        .then_some(first)
}

/// HEPS C1 for the blocks `members` of one style: their front nodes (climb from each
/// block's element while no two neighbours share an ancestor, B.5) include an accepted heading
/// of an upper level (`upper`, sorted node ids) for at least [`UPPER_HEADINGS_RATIO`] of them.
pub fn includes_upper_headings(
    tree: &ReducedTree,
    spans: &[NodeId],
    blocks: &[Block],
    members: &[usize],
    upper: &[NodeId],
) -> bool {
    if members.is_empty() || upper.is_empty() {
        return false;
    }
    let nodes: Vec<NodeId> = members.iter().map(|&i| blocks[i].node).collect();
    let front = front_nodes_by(&nodes, |x| {
        tree.nodes.get(x as usize).map_or(0, |n| n.parent)
    });
    let holds = |f: NodeId| {
        let end = spans.get(f as usize).copied().unwrap_or(f);
        let from = upper.partition_point(|&u| u < f);
        upper.get(from).is_some_and(|&u| u <= end)
    };
    // Lines of one element (`<b>Kontakt</b><br>Telefon …` in a `div`) share their block
    // node, so the climb cannot part them and their front node is that element, which also
    // holds the `h1` above them. A member's part of the page is then its run of blocks, up to
    // the next member in that element or the element's end.
    let heading_in = |from: usize, to: usize| {
        blocks[from..to.min(blocks.len())]
            .iter()
            .any(|b| upper.binary_search(&b.node).is_ok())
    };
    let with = (0..front.len())
        .filter(|&k| {
            let node = nodes[k];
            let shared = (k > 0 && nodes[k - 1] == node) || nodes.get(k + 1) == Some(&node);
            if !shared {
                return holds(front[k]);
            }
            let from = members[k];
            let to = match members.get(k + 1) {
                Some(&next) if nodes[k + 1] == node => next,
                _ => {
                    let end = spans.get(node as usize).copied().unwrap_or(node);
                    blocks[from..]
                        .iter()
                        .position(|b| b.node < node || b.node > end)
                        .map_or(blocks.len(), |p| from + p)
                }
            };
            heading_in(from, to)
        })
        .count();
    with as f64 >= UPPER_HEADINGS_RATIO * front.len() as f64
}

/// Heading tags rank before untagged styles of equal look, `h2` before `h3`.
pub(super) fn tag_order(level: u8) -> u8 {
    if level == 0 { 7 } else { level }
}

/// The most common style of body text: most characters in blocks of at least four words
/// (short-text exclusion), falling back to all blocks.
pub fn body_style(blocks: &[Block]) -> Style {
    let mut counts: Vec<(Style, usize)> = Vec::new();
    for min_words in [4, 0] {
        for b in blocks.iter().filter(|b| {
            b.words >= min_words
                && !b.link_only
                && b.kind != BlockKind::TableRow
                && (min_words > 0 || !matches!(b.kind, BlockKind::Heading(_)))
        }) {
            let n = b.text.chars().count();
            match counts.iter_mut().find(|(s, _)| *s == b.style) {
                Some(c) => c.1 += n,
                None => counts.push((b.style, n)),
            }
        }
        if !counts.is_empty() {
            break;
        }
    }
    let mut best: Option<(Style, usize)> = None;
    for c in counts {
        if best.is_none_or(|b| c.1 > b.1) {
            best = Some(c);
        }
    }
    best.map(|b| b.0).unwrap_or_default()
}

/// The group of a headline candidate, or `None` when the block cannot head anything.
/// `numbered` tells that the block's number continues or starts a sequence of its class.
pub(super) fn candidate_key(b: &Block, body: &Style, numbered: bool) -> Option<GroupKey> {
    match b.kind {
        // A heading tag's level is its tag and its size: an italic or `<strong>`-wrapped `h3`
        // is still an `h3` (weight, italics, underline and colour do not split the level).
        // Longer text in a heading tag is a paragraph, unless its number is one of a sequence:
        // pages that set every clause in a heading tag ("6.3 You may not …") keep all of them
        // headings, not only the short ones.
        BlockKind::Heading(level) => (b.words <= MAX_TAG_WORDS || numbered).then_some(GroupKey {
            style: Style {
                size: b.style.size,
                weight: 700,
                ..Style::default()
            },
            tag_level: level,
        }),
        BlockKind::Paragraph => (!b.link_only
            && b.uniform
            && !starts_lowercase(&b.text)
            && !is_numbered_clause(b)
            && b.words <= MAX_VISUAL_WORDS
            && b.style != *body
            && b.style.more_prominent_than(body)
            && (!is_sentence(&b.text, b.words) || is_question(&b.text)))
        .then_some(GroupKey {
            style: b.style,
            tag_level: 0,
        }),
        _ => None,
    }
}

/// Text that starts with a lower-case letter continues a sentence ("zustande.").
pub(super) fn starts_lowercase(text: &str) -> bool {
    text.chars().next().is_some_and(char::is_lowercase)
}

/// A paragraph numbered `(1)`, `(2)` is a clause (Absatz) of its section, even in bold.
pub(super) fn is_numbered_clause(b: &Block) -> bool {
    b.enumeration
        .as_ref()
        .is_some_and(|e| e.decoration == Decoration::Parens && e.kind == NumberKind::Arabic)
}

/// Words that end one item of a list run inside a sentence ("…; and", "…, oder").
const LIST_CONJUNCTIONS: [&str; 7] = ["and", "or", "and/or", "und", "oder", "et", "ou"];

/// A numbered line that is a piece of a sentence, not a title: the text after its number
/// starts in lower case ("a) that the service is error-free; or") or it ends with the
/// conjunction that joins a list run ("9. To comply with legal requirements; and"). A title
/// starts with a capital (or a digit) and never ends in "and".
pub(super) fn continues_a_sentence(b: &Block) -> bool {
    let rest = match &b.enumeration {
        Some(e) => e.rest(&b.text),
        None => &b.text,
    };
    let lower_start = rest.chars().next().is_some_and(char::is_lowercase);
    let last = rest.rsplit(' ').next().unwrap_or_default();
    lower_start
        || LIST_CONJUNCTIONS
            .iter()
            .any(|c| last.eq_ignore_ascii_case(c))
}

/// A question ("What information do we collect?"): privacy policies title their sections so,
/// set apart from the text like any title, so a question is no sentence for a title.
pub(super) fn is_question(text: &str) -> bool {
    text.trim_end().ends_with('?')
}

/// A block that reads as a sentence: five or more words ending in sentence punctuation.
pub(super) fn is_sentence(text: &str, words: usize) -> bool {
    words >= 5 && text.trim_end().ends_with(['.', '!', '?', ';', ','])
}
