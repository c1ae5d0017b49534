//! The parts of HEPS (Manabe & Tajima, heading-based page segmentation) on the production
//! path: the sentence-breaking preprocessing, front nodes and the C1 filter's threshold. The
//! full segmentation is research code (`crate::research`, feature `research`) and uses these
//! same functions.

use std::collections::HashMap;

use crate::parse::scan::FastHash;
use crate::parse::stack::is_block;
use crate::parse::tree::{NodeId, NodeKind, ReducedTree};
use crate::structure::style::{ComputedStyles, Style};

/// HEPS C1: share of front nodes holding an upper-level heading at which a candidate list is
/// rejected. The paper's 0.1 is raised to 0.2: with HEPS alone on the content candidate,
/// mean heading F1 on the Open Terms Archive pages is 0.688 at 0.1, 0.718 at 0.2 and 0.713
/// at 0.3 (`examples/heps_thresholds.rs`).
pub const UPPER_HEADINGS_RATIO: f64 = 0.2;

/// For every node of the reduced tree, the last node id of its subtree (ids are pre-order).
pub fn subtree_ends(tree: &ReducedTree) -> Vec<NodeId> {
    let mut end: Vec<NodeId> = (0..tree.nodes.len() as NodeId).collect();
    for id in (1..tree.nodes.len()).rev() {
        let p = tree.nodes[id].parent as usize;
        if p < id {
            end[p] = end[p].max(end[id]);
        }
    }
    end
}

/// The front nodes of a list of nodes in document order (HEPS B.5): every entry climbs one
/// level at a time (`parent`) while no two adjacent entries meet; a single entry's front node
/// is the root (0). The root must be its own parent, so the climb ends.
pub fn front_nodes_by<N: Copy + PartialEq + Default>(
    members: &[N],
    parent: impl Fn(N) -> N,
) -> Vec<N> {
    match members.len() {
        0 => return Vec::new(),
        1 => return vec![N::default()],
        _ => {}
    }
    let mut a = members.to_vec();
    let mut front = a.clone();
    loop {
        if a.windows(2).any(|w| w[0] == w[1]) {
            break;
        }
        front.clone_from(&a);
        if a.iter().all(|&x| x == N::default()) {
            break;
        }
        for x in a.iter_mut() {
            *x = parent(*x);
        }
    }
    front
}

/// For the T&C hierarchy: the computed styles with every sentence-breaking inline element
/// (an inline element between two text nodes, e.g. a bold word inside a sentence) and every
/// element of the same HEPS style key (same look at the same tag path) restyled, with its
/// subtree, as the text that followed the first such element — when most elements of that
/// key break sentences (see [`ReplicaTree::preprocess`] with `inline_only`). Bold words inside
/// sentences then no longer make their style a headline candidate at that path.
///
/// Works on the reduced tree directly (the same detection as the replica tree, without
/// building one): one pass over the nodes, memory linear in the number of nodes.
pub fn without_sentence_breaking(tree: &ReducedTree, styles: &ComputedStyles) -> ComputedStyles {
    let n = tree.nodes.len();
    let blank =
        |id: NodeId| matches!(&tree.node(id).kind, NodeKind::Text(t) if t.trim().is_empty());
    let is_text = |id: NodeId| matches!(&tree.node(id).kind, NodeKind::Text(_));
    // Tag path ids (parents precede children in the node table).
    let mut path = vec![0u32; n];
    let mut path_ids: HashMap<(u32, &str), u32, FastHash> = HashMap::default();
    for id in 1..n {
        let node = &tree.nodes[id];
        if let Some(tag) = node.tag() {
            let parent = path.get(node.parent as usize).copied().unwrap_or(0);
            let next = path_ids.len() as u32 + 1;
            path[id] = *path_ids.entry((parent, tag)).or_insert(next);
        }
    }
    let key = |id: NodeId| (styles.get(id), path[id as usize]);
    let mut counts: HashMap<(Style, u32), (usize, usize), FastHash> = HashMap::default();
    let mut breaking: HashMap<(Style, u32), Style, FastHash> = HashMap::default();
    let mut siblings: Vec<NodeId> = Vec::new();
    for node in &tree.nodes {
        if node.children.is_empty() {
            continue;
        }
        siblings.clear();
        siblings.extend(node.children.iter().copied().filter(|&c| !blank(c)));
        for (k, &c) in siblings.iter().enumerate() {
            let Some(tag) = tree.node(c).tag() else {
                continue;
            };
            if is_block(tag) || matches!(tag, "br" | "hr" | "img") {
                continue;
            }
            let count = counts.entry(key(c)).or_default();
            count.0 += 1;
            let prev = k.checked_sub(1).and_then(|p| siblings.get(p)).copied();
            let next = siblings.get(k + 1).copied();
            if let (Some(p), Some(x)) = (prev, next)
                && is_text(p)
                && is_text(x)
            {
                count.1 += 1;
                breaking.entry(key(c)).or_insert(styles.get(x));
            }
        }
    }
    breaking.retain(|k, _| counts.get(k).is_some_and(|&(all, br)| br * 2 > all));
    let mut out = styles.clone();
    if breaking.is_empty() {
        return out;
    }
    let end = subtree_ends(tree);
    let mut id = 1;
    while id < n {
        let converted = tree.nodes[id]
            .tag()
            .is_some_and(|t| !is_block(t) && !matches!(t, "br" | "hr" | "img"))
            .then(|| breaking.get(&key(id as NodeId)).copied())
            .flatten();
        match converted {
            Some(style) => {
                // Like the replica tree: the subtree becomes text of the new style and is not
                // looked into any further.
                let last = (end[id] as usize).min(n - 1);
                for s in &mut out.styles[id..=last] {
                    *s = style;
                }
                id = last + 1;
            }
            None => id += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnalysisOptions;

    fn page(body: &str) -> (ReducedTree, ComputedStyles) {
        let tree = ReducedTree::build(
            body,
            std::slice::from_ref(&(0..body.len())),
            &AnalysisOptions::default(),
        )
        .unwrap();
        let styles = ComputedStyles::compute(&tree, &[]);
        (tree, styles)
    }

    #[test]
    fn front_nodes_climb_until_neighbours_meet() {
        // parent: 1→0, 2→1, 3→1, 4→0
        let parent = |x: usize| [0, 0, 1, 1, 0][x];
        assert_eq!(front_nodes_by(&[2, 3], parent), [2, 3]);
        assert_eq!(front_nodes_by(&[2, 4], parent), [1, 0]);
        assert_eq!(front_nodes_by(&[3], parent), [0]);
        assert!(front_nodes_by::<usize>(&[], parent).is_empty());
    }

    #[test]
    fn sentence_breaking_inline_styles_are_dropped_for_the_hierarchy() {
        let body = "<p>Der <b>Vertrag</b> kommt zustande.</p><p>Die <b>Ware</b> bleibt unser Eigentum.</p><p><b>Geltungsbereich</b></p><h2>Titel</h2><p>text <span>mit</span> span</p>";
        let (tree, styles) = page(body);
        let out = without_sentence_breaking(&tree, &styles);
        let id = |text: &str| {
            tree.nodes
                .iter()
                .position(|n| matches!(&n.kind, NodeKind::Text(t) if t == text))
                .unwrap() as NodeId
        };
        assert_eq!(styles.get(id("Vertrag")).weight, 700);
        assert_eq!(out.get(id("Vertrag")).weight, 400);
        // The same key elsewhere (a bold title at the same tag path) is neutralised too, as long
        // as most elements of that key break sentences.
        assert_eq!(out.get(id("Geltungsbereich")).weight, 400);
        let mut body = String::from("<p>Sie müssen uns <b>(per E-Mail)</b> informieren.</p>");
        for t in ["Widerrufsrecht", "Folgen des Widerrufs", "Ausschlussgründe"] {
            body.push_str(&format!("<p><br><b>{t}</b><br>Text.</p>"));
        }
        let (tree, styles) = page(&body);
        let out2 = without_sentence_breaking(&tree, &styles);
        let folgen = tree
            .nodes
            .iter()
            .position(|n| matches!(&n.kind, NodeKind::Text(t) if t == "Folgen des Widerrufs"))
            .unwrap() as NodeId;
        assert_eq!(out2.get(folgen).weight, 700);
        // Block-level elements are never sentence-breaking for the hierarchy.
        assert_eq!(out.get(id("Titel")).weight, 700);
    }
}
