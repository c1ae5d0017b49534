//! Classification, front nodes, sorting and the recursive segmentation with the set filters.

use super::*;

/// A candidate list: the replicas of one style key, in document order.
#[derive(Debug, Clone)]
pub struct CandidateList {
    /// The shared key.
    pub key: StyleKey,
    /// Members in document order.
    pub members: Vec<ReplicaId>,
    /// Front node of each member (B.5).
    pub front_nodes: Vec<ReplicaId>,
    /// The set filters that rejected the list (empty: accepted).
    pub filtered_by: Vec<Filter>,
}

/// A block of the segmentation.
#[derive(Debug, Clone)]
pub struct HepsBlock {
    /// Its node sequence (consecutive siblings); the root block holds the root.
    pub nodes: Vec<ReplicaId>,
    /// The heading replica (`None` for the root block).
    pub heading: Option<ReplicaId>,
    /// Child blocks (indices into [`Heps::blocks`]) in creation order.
    pub children: Vec<usize>,
}

/// The result of HEPS on one page.
#[derive(Debug, Clone)]
pub struct Heps {
    /// The preprocessed replica tree.
    pub tree: ReplicaTree,
    /// Candidate lists in sorted order, with their filter results.
    pub lists: Vec<CandidateList>,
    /// Blocks; 0 is the root block.
    pub blocks: Vec<HepsBlock>,
    /// For each replica, the block it was last marked part of.
    pub part_of: Vec<Option<usize>>,
    /// For each replica, whether it is or contains an accepted heading.
    pub has_heading: Vec<bool>,
}

/// Candidate lists by key, members in document order (B.4).
pub fn classify(tree: &ReplicaTree) -> Vec<CandidateList> {
    let mut index: HashMap<StyleKey, usize> = HashMap::new();
    let mut lists: Vec<CandidateList> = Vec::new();
    for r in tree.preorder() {
        let x = &tree.replicas[r];
        if x.content.is_empty() {
            continue;
        }
        let i = *index.entry(x.key).or_insert_with(|| {
            lists.push(CandidateList {
                key: x.key,
                members: Vec::new(),
                front_nodes: Vec::new(),
                filtered_by: Vec::new(),
            });
            lists.len() - 1
        });
        lists[i].members.push(r);
    }
    lists
}

/// The front nodes of a list of replicas (B.5), with the production path's
/// [`front_nodes_by`].
pub fn front_nodes(tree: &ReplicaTree, members: &[ReplicaId]) -> Vec<ReplicaId> {
    front_nodes_by(members, |r| tree.replicas[r].parent)
}

/// Sorts candidate lists (B.6): front-node depth, font size and weight of the first member
/// (both descending), then document order.
pub fn sort_lists(tree: &ReplicaTree, lists: &mut [CandidateList]) {
    lists.sort_by(|a, b| {
        let depth = |l: &CandidateList| {
            l.front_nodes
                .first()
                .map_or(usize::MAX, |&f| tree.replicas[f].depth)
        };
        let first = |l: &CandidateList| l.members.first().copied().unwrap_or(usize::MAX);
        let style = |l: &CandidateList| {
            l.members
                .first()
                .map(|&m| tree.replicas[m].style)
                .unwrap_or_default()
        };
        depth(a)
            .cmp(&depth(b))
            .then(style(b).size.total_cmp(&style(a).size))
            .then(style(b).weight.cmp(&style(a).weight))
            .then(first(a).cmp(&first(b)))
    });
}

impl Heps {
    /// The block a replica belongs to: the mark of the nearest ancestor-or-self.
    pub fn context_block(&self, r: ReplicaId) -> usize {
        let mut cur = r;
        loop {
            if let Some(b) = self.part_of[cur] {
                return b;
            }
            let p = self.tree.replicas[cur].parent;
            if p == cur {
                return 0;
            }
            cur = p;
        }
    }

    /// Whether a block's node sequence holds replica `r`.
    pub fn block_includes(&self, block: usize, r: ReplicaId) -> bool {
        let nodes = &self.blocks[block].nodes;
        match (nodes.first(), nodes.last()) {
            (Some(&a), Some(&z)) => a <= r && r <= self.tree.replicas[z].id_to,
            _ => false,
        }
    }

    pub(super) fn create_block(
        &mut self,
        nodes: Vec<ReplicaId>,
        heading: Option<ReplicaId>,
    ) -> usize {
        let context = nodes.first().map_or(0, |&n| self.context_block(n));
        let id = self.blocks.len();
        for &n in &nodes {
            self.part_of[n] = Some(id);
        }
        if let Some(h) = heading {
            let mut cur = h;
            loop {
                self.has_heading[cur] = true;
                let p = self.tree.replicas[cur].parent;
                if p == cur {
                    break;
                }
                cur = p;
            }
        }
        self.blocks.push(HepsBlock {
            nodes,
            heading,
            children: Vec::new(),
        });
        if id != context {
            self.blocks[context].children.push(id);
        }
        id
    }

    /// The heading text of a block ("" for the root).
    pub fn heading_text(&self, block: usize) -> &str {
        self.blocks[block]
            .heading
            .map_or("", |h| self.tree.replicas[h].content.as_str())
    }

    /// `heading [children]` outline of the blocks below the root, for tests and debugging.
    pub fn outline(&self) -> String {
        let mut out = String::new();
        enum Tok {
            Block(usize),
            Text(&'static str),
        }
        let mut todo: Vec<Tok> = Vec::new();
        for (i, &b) in self.blocks[0].children.iter().enumerate().rev() {
            todo.push(Tok::Block(b));
            if i > 0 {
                todo.push(Tok::Text(", "));
            }
        }
        while let Some(t) = todo.pop() {
            match t {
                Tok::Text(s) => out.push_str(s),
                Tok::Block(b) => {
                    out.push_str(self.heading_text(b));
                    let children = &self.blocks[b].children;
                    if !children.is_empty() {
                        out.push_str(" [");
                        todo.push(Tok::Text("]"));
                        for (i, &c) in children.iter().enumerate().rev() {
                            todo.push(Tok::Block(c));
                            if i > 0 {
                                todo.push(Tok::Text(", "));
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// Runs HEPS on a reduced tree: replicas, preprocessing, classification, sorting and
/// segmentation.
pub fn heps(
    tree: &ReducedTree,
    styles: &ComputedStyles,
    heading: &str,
    thresholds: &Thresholds,
) -> Heps {
    let mut rt = ReplicaTree::build(tree, styles, heading);
    rt.preprocess(false);
    segment(rt, thresholds)
}

/// Classification, sorting and recursive segmentation (B.4–B.7) of a preprocessed tree.
pub fn segment(tree: ReplicaTree, th: &Thresholds) -> Heps {
    let mut lists = classify(&tree);
    for l in &mut lists {
        l.front_nodes = front_nodes(&tree, &l.members);
    }
    sort_lists(&tree, &mut lists);
    let n = tree.replicas.len();
    let mut h = Heps {
        tree,
        lists: Vec::new(),
        blocks: Vec::new(),
        part_of: vec![None; n],
        has_heading: vec![false; n],
    };
    h.create_block(vec![0], None);
    // Node sequence per front node (a later list reusing a front node overwrites it).
    let mut sequences: HashMap<ReplicaId, Vec<ReplicaId>> = HashMap::new();
    for mut list in lists {
        let fronts = list.front_nodes.clone();
        h.record_sequences(&fronts, &mut sequences);
        let (filtered, is_empty) = h.set_filters(&list.members, &fronts, &sequences, th);
        if filtered.is_empty() {
            h.accept(&list.members, &fronts, &is_empty, &sequences);
        }
        list.filtered_by = filtered;
        h.lists.push(list);
    }
    h
}

impl Heps {
    /// The node sequence of each front node: it and its following siblings up to the next
    /// front node, a heading, or the end of its context block.
    pub(super) fn record_sequences(
        &self,
        fronts: &[ReplicaId],
        sequences: &mut HashMap<ReplicaId, Vec<ReplicaId>>,
    ) {
        for (i, &f) in fronts.iter().enumerate() {
            let context = self.context_block(f);
            let next_front = fronts.get(i + 1).copied();
            let mut seq = vec![f];
            let mut s = self.tree.next(f);
            while let Some(x) = s {
                if Some(x) == next_front || self.has_heading[x] || !self.block_includes(context, x)
                {
                    break;
                }
                seq.push(x);
                s = self.tree.next(x);
            }
            sequences.insert(f, seq);
        }
    }

    /// The set filters C1–C5 that reject a candidate list, and which members would produce
    /// an empty block.
    pub(super) fn set_filters(
        &self,
        members: &[ReplicaId],
        fronts: &[ReplicaId],
        sequences: &HashMap<ReplicaId, Vec<ReplicaId>>,
        th: &Thresholds,
    ) -> (Vec<Filter>, Vec<bool>) {
        let replicas = &self.tree.replicas;
        let range = |f: ReplicaId| -> (usize, usize) {
            let seq = &sequences[&f];
            let first = seq.first().copied().unwrap_or(f);
            let last = seq.last().copied().unwrap_or(f);
            (replicas[first].from, replicas[last].to)
        };
        let pairs = || members.iter().zip(fronts);
        let is_empty: Vec<bool> = pairs()
            .map(|(&r, &f)| {
                let (bf, bt) = range(f);
                replicas[r].from <= bf && bt <= replicas[r].to
            })
            .collect();
        let too_much = pairs()
            .filter(|&(&r, &f)| {
                let (bf, bt) = range(f);
                let x = &replicas[r];
                (bt.saturating_sub(bf) as f64)
                    < th.too_much_factor * x.to.saturating_sub(x.from) as f64
            })
            .count();
        let contexts: Vec<usize> = members.iter().map(|&r| self.context_block(r)).collect();
        let mut per_context: HashMap<usize, usize> = HashMap::new();
        let mut per_content: HashMap<(usize, &str), usize> = HashMap::new();
        for (&r, &c) in members.iter().zip(&contexts) {
            *per_context.entry(c).or_default() += 1;
            *per_content
                .entry((c, replicas[r].content.as_str()))
                .or_default() += 1;
        }
        let ratio = |n: usize, of: usize| n as f64 / of.max(1) as f64;
        let m = members.len();
        let repeated = members
            .iter()
            .zip(&contexts)
            .filter(|&(&r, &c)| per_content[&(c, replicas[r].content.as_str())] > 1)
            .count();
        let values = [
            (
                ratio(
                    fronts.iter().filter(|&&f| self.has_heading[f]).count(),
                    fronts.len(),
                ),
                th.upper_headings,
                Filter::UpperHeadings,
            ),
            (
                ratio(is_empty.iter().filter(|&&e| e).count(), m),
                th.empty,
                Filter::EmptyBlock,
            ),
            (
                ratio(contexts.iter().filter(|c| per_context[c] < 2).count(), m),
                th.no_siblings,
                Filter::NoSiblings,
            ),
            (ratio(repeated, m), th.non_unique, Filter::NonUnique),
            (ratio(too_much, m), th.too_much, Filter::TooMuch),
        ];
        let filtered = values
            .into_iter()
            .filter(|&(value, threshold, _)| value >= threshold)
            .map(|(_, _, filter)| filter)
            .collect();
        (filtered, is_empty)
    }

    /// Node level of an accepted list, evaluated for all members before any block is
    /// created: a member whose front node holds a heading or whose block would be empty heads
    /// nothing.
    pub(super) fn accept(
        &mut self,
        members: &[ReplicaId],
        fronts: &[ReplicaId],
        is_empty: &[bool],
        sequences: &HashMap<ReplicaId, Vec<ReplicaId>>,
    ) {
        let keep: Vec<(ReplicaId, ReplicaId)> = members
            .iter()
            .zip(fronts)
            .zip(is_empty)
            .filter(|((_, f), e)| !self.has_heading[**f] && !**e)
            .map(|((&r, &f), _)| (r, f))
            .collect();
        for (r, f) in keep {
            let seq = sequences.get(&f).cloned().unwrap_or_else(|| vec![f]);
            self.create_block(seq, Some(r));
        }
    }
}
