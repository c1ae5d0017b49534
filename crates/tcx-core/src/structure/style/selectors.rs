//! Selector matching against the reduced tree and the candidate's enclosing elements.

use super::*;
use crate::parse::tree::{NodeId, ReducedTree};
use simplecss::{AttributeOperator, PseudoClass};

/// For each node, its previous element sibling (0 when none).
pub(super) fn previous_element_siblings(tree: &ReducedTree) -> Vec<NodeId> {
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

pub(super) struct MatchContext<'t> {
    pub(super) tree: &'t ReducedTree,
    pub(super) prev: &'t [NodeId],
}

impl<'t> MatchContext<'t> {
    pub(super) fn bind(&'t self, el: El) -> Bound<'t> {
        Bound { ctx: self, el }
    }

    /// The tag of an element (`None` for text).
    pub(super) fn tag(&self, el: El) -> Option<&'t str> {
        match el {
            El::Node { id, .. } => self.tree.node(id).tag(),
            El::Ancestor(i) => self.tree.ancestors.get(i as usize).map(|a| a.tag.as_str()),
            El::Body => Some("body"),
            El::Html => Some("html"),
        }
    }

    /// The value of an attribute of an element.
    pub(super) fn attribute(&self, el: El, name: &str) -> Option<&'t str> {
        match el {
            El::Node { id, .. } => self.tree.node(id).attribute(name),
            El::Ancestor(i) => self.tree.ancestors.get(i as usize)?.attribute(name),
            El::Body | El::Html => None,
        }
    }

    /// The element above the candidate's top-level nodes.
    pub(super) fn above_root(&self) -> El {
        match self.tree.ancestors.len() {
            0 => El::Body,
            n => El::Ancestor((n - 1).min(u16::MAX as usize) as u16),
        }
    }
}

/// An element of the reduced tree, one of the candidate's enclosing elements on the page, or
/// one of the stand-in ancestors used when those are unknown.
#[derive(Clone, Copy)]
pub(super) enum El {
    Node {
        id: NodeId,
        hops: u16,
    },
    /// Index into [`ReducedTree::ancestors`].
    Ancestor(u16),
    Body,
    Html,
}

pub(super) struct Bound<'t> {
    pub(super) ctx: &'t MatchContext<'t>,
    pub(super) el: El,
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
