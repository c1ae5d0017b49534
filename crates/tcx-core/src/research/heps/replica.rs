//! The replica tree: one replica per element and text node with its style key, the raw
//! string of all contents, and the preprocessing (blank removal, sentence-breaking conversion).

use super::*;

/// One replica of an element or text node.
#[derive(Debug, Clone)]
pub struct Replica {
    /// The reduced-tree node it stands for.
    pub node: NodeId,
    /// Lower-case tag, `#text` for text (also after conversion); shared between replicas.
    pub(super) name: Rc<str>,
    /// A text (or converted) replica.
    pub is_text: bool,
    /// Whitespace-normalised content (text, image text, converted subtree text).
    pub content: String,
    /// Start of the content (or of the subtree's contents) in [`ReplicaTree::raw`], bytes.
    pub from: usize,
    /// End of the subtree's contents in [`ReplicaTree::raw`], bytes.
    pub to: usize,
    /// Last id in the subtree (ids are pre-order).
    pub id_to: ReplicaId,
    /// Number of ancestors including itself: the root has depth 1.
    pub depth: usize,
    /// The parent (the root is its own parent).
    pub parent: ReplicaId,
    /// Classification key.
    pub key: StyleKey,
    /// The computed style behind the key (size and weight order the lists).
    pub style: Style,
    /// Still in the tree (blank removal, merges and conversions detach replicas).
    pub attached: bool,
    pub(super) prev: ReplicaId,
    pub(super) next: ReplicaId,
    pub(super) first_child: ReplicaId,
    pub(super) last_child: ReplicaId,
}

impl Replica {
    /// Lower-case tag, `#text` for text (also after conversion).
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The replica tree of one reduced tree.
#[derive(Debug, Clone)]
pub struct ReplicaTree {
    /// Replicas by id; 0 is the root (`body`).
    pub replicas: Vec<Replica>,
    /// Page heading and all contents, each content preceded by a space.
    pub raw: String,
    /// Length of the page heading in [`ReplicaTree::raw`].
    pub heading_len: usize,
    /// Interned tag paths.
    pub(super) paths: Vec<String>,
    /// Replicas found sentence-breaking at detection time.
    pub(super) breaking_nodes: Vec<ReplicaId>,
    /// Converted replicas: (replica, last id of its subtree, the style it took).
    pub(super) converted: Vec<(ReplicaId, ReplicaId, Style)>,
}

/// Shared names and tag-path ids while the replica tree is built.
#[derive(Default)]
pub(super) struct Interner {
    pub(super) ids: HashMap<String, u32>,
    pub(super) names: HashMap<String, Rc<str>>,
}

impl Interner {
    /// The shared copy of a tag name.
    pub(super) fn name(&mut self, name: &str) -> Rc<str> {
        Rc::clone(
            self.names
                .entry(name.to_owned())
                .or_insert_with(|| Rc::from(name)),
        )
    }

    /// The id of a tag path, with the path itself when it is new.
    pub(super) fn id(&mut self, path: &str) -> (u32, Option<String>) {
        if let Some(&id) = self.ids.get(path) {
            return (id, None);
        }
        let id = self.ids.len() as u32;
        self.ids.insert(path.to_owned(), id);
        (id, Some(path.to_owned()))
    }
}

impl ReplicaTree {
    /// Builds the replicas of `tree` with the computed `styles`; `heading` is the page heading
    /// ([`page_heading`]) that starts the raw string.
    pub fn build(tree: &ReducedTree, styles: &ComputedStyles, heading: &str) -> ReplicaTree {
        let mut rt = ReplicaTree {
            replicas: Vec::with_capacity(tree.nodes.len()),
            raw: heading.to_owned(),
            heading_len: 0,
            paths: Vec::new(),
            breaking_nodes: Vec::new(),
            converted: Vec::new(),
        };
        rt.heading_len = rt.raw.len();
        let mut names = Interner::default();
        let mut paths = Interner::default();
        enum Step {
            Enter(NodeId, ReplicaId),
            Exit(ReplicaId),
        }
        let mut work = vec![Step::Enter(0, NONE)];
        while let Some(step) = work.pop() {
            match step {
                Step::Exit(r) => {
                    rt.replicas[r].to = rt.raw.len();
                    rt.replicas[r].id_to = rt.replicas.len() - 1;
                }
                Step::Enter(id, parent) => {
                    let me = rt.push_replica(tree, styles, id, parent, &mut names, &mut paths);
                    work.push(Step::Exit(me));
                    for &c in tree.node(id).children.iter().rev() {
                        work.push(Step::Enter(c, me));
                    }
                }
            }
        }
        rt
    }

    /// Appends the replica of node `id` under `parent` (pre-order) and returns its id.
    pub(super) fn push_replica(
        &mut self,
        tree: &ReducedTree,
        styles: &ComputedStyles,
        id: NodeId,
        parent: ReplicaId,
        names: &mut Interner,
        paths: &mut Interner,
    ) -> ReplicaId {
        let node = tree.node(id);
        let me = self.replicas.len();
        let (name, is_text, content): (&str, bool, String) = match &node.kind {
            NodeKind::Text(t) => ("#text", true, normalize_space(t)),
            NodeKind::Element { .. } if id == 0 => ("body", false, String::new()),
            NodeKind::Element { tag, .. } if tag == "img" => {
                let src = node.attribute("src").map(tokenize_url).unwrap_or_default();
                let alt = node.attribute("alt").unwrap_or("");
                (tag, false, normalize_space(&format!("{src} {alt}")))
            }
            NodeKind::Element { tag, .. } => (tag, false, String::new()),
        };
        let name = names.name(name);
        let (depth, parent_path) = if parent == NONE {
            (1, String::new())
        } else {
            let p = &self.replicas[parent];
            (p.depth + 1, self.paths[p.key.path as usize].clone())
        };
        let (path, new) = paths.id(&format!("{parent_path}/{name}"));
        if let Some(p) = new {
            self.paths.push(p);
        }
        let style = styles.get(id);
        let key = StyleKey {
            color: style.color,
            size: (style.size * 100.0).round() as i32,
            italic: style.italic,
            weight: style.weight,
            height: if &*name == "img" {
                image_height(node)
            } else {
                None
            },
            path,
            underline: style.underline,
        };
        let from = self.raw.len() + 1;
        if !content.is_empty() {
            self.raw.push(' ');
            self.raw.push_str(&content);
        }
        self.replicas.push(Replica {
            node: id,
            name,
            is_text,
            content,
            from,
            to: from,
            id_to: me,
            depth,
            parent: if parent == NONE { me } else { parent },
            key,
            style,
            attached: true,
            prev: NONE,
            next: NONE,
            first_child: NONE,
            last_child: NONE,
        });
        if parent != NONE {
            self.append_child(parent, me);
        }
        me
    }

    pub(super) fn append_child(&mut self, parent: ReplicaId, child: ReplicaId) {
        let last = self.replicas[parent].last_child;
        self.replicas[child].prev = last;
        self.replicas[child].next = NONE;
        if last == NONE {
            self.replicas[parent].first_child = child;
        } else {
            self.replicas[last].next = child;
        }
        self.replicas[parent].last_child = child;
    }

    /// Removes a replica from its parent's children, relinking its siblings.
    pub fn detach(&mut self, r: ReplicaId) {
        if r == 0 || !self.replicas[r].attached {
            return;
        }
        let (parent, prev, next) = {
            let x = &self.replicas[r];
            (x.parent, x.prev, x.next)
        };
        if prev == NONE {
            self.replicas[parent].first_child = next;
        } else {
            self.replicas[prev].next = next;
        }
        if next == NONE {
            self.replicas[parent].last_child = prev;
        } else {
            self.replicas[next].prev = prev;
        }
        let x = &mut self.replicas[r];
        x.attached = false;
        x.prev = NONE;
        x.next = NONE;
    }

    /// The attached children of a replica, in order.
    pub fn children(&self, r: ReplicaId) -> Vec<ReplicaId> {
        let mut out = Vec::new();
        let mut c = self.replicas[r].first_child;
        while c != NONE {
            out.push(c);
            c = self.replicas[c].next;
        }
        out
    }

    /// The previous attached sibling.
    pub fn prev(&self, r: ReplicaId) -> Option<ReplicaId> {
        Some(self.replicas[r].prev).filter(|&p| p != NONE)
    }

    /// The next attached sibling.
    pub fn next(&self, r: ReplicaId) -> Option<ReplicaId> {
        Some(self.replicas[r].next).filter(|&p| p != NONE)
    }

    /// The tag path of a key.
    pub fn path(&self, key: &StyleKey) -> &str {
        self.paths
            .get(key.path as usize)
            .map(String::as_str)
            .unwrap_or("")
    }

    /// The reference's key string: `rgb(r, g, b);size;style;weight;height;path;decoration`.
    pub fn key_string(&self, key: &StyleKey) -> String {
        let c = key.color;
        let size = key.size as f64 / 100.0;
        format!(
            "rgb({}, {}, {});{};{};{};{};{};{}",
            c >> 16 & 0xff,
            c >> 8 & 0xff,
            c & 0xff,
            size,
            if key.italic { "italic" } else { "normal" },
            key.weight,
            key.height
                .map_or_else(|| "null".to_owned(), |h| h.to_string()),
            self.path(key),
            if key.underline { "underline" } else { "none" }
        )
    }

    /// Whether `a`'s subtree holds the replica `b` (by id range).
    pub fn includes(&self, a: ReplicaId, b: ReplicaId) -> bool {
        a <= b && b <= self.replicas[a].id_to
    }

    /// The raw string between two offsets.
    pub fn slice(&self, from: usize, to: usize) -> String {
        self.raw
            .get(from..to.max(from))
            .unwrap_or_default()
            .to_owned()
    }

    /// Replicas found sentence-breaking (both neighbours texts) at detection time.
    pub fn breaking_nodes(&self) -> &[ReplicaId] {
        &self.breaking_nodes
    }

    /// Attached replicas in pre-order.
    pub fn preorder(&self) -> Vec<ReplicaId> {
        let mut out = Vec::new();
        let mut stack = vec![0];
        while let Some(r) = stack.pop() {
            out.push(r);
            let mut c = self.replicas[r].last_child;
            while c != NONE {
                stack.push(c);
                c = self.replicas[c].prev;
            }
        }
        out
    }

    /// Turns a replica into text holding its subtree's contents; its children are detached.
    pub fn to_text(&mut self, r: ReplicaId) {
        let (from, to) = (self.replicas[r].from, self.replicas[r].to);
        let content = self.slice(from, to);
        let mut c = self.replicas[r].first_child;
        while c != NONE {
            let next = self.replicas[c].next;
            self.replicas[c].attached = false;
            c = next;
        }
        let x = &mut self.replicas[r];
        x.first_child = NONE;
        x.last_child = NONE;
        x.name = Rc::from("#text");
        x.is_text = true;
        x.content = content;
    }

    /// Merges `b` into `a` (B.3): `a` spans both, `b` is detached.
    pub fn merge(&mut self, a: ReplicaId, b: ReplicaId) {
        let (b_from, b_to, b_id_to) = {
            let x = &self.replicas[b];
            (x.from, x.to, x.id_to)
        };
        if self.replicas[a].from == 0 {
            self.replicas[a].from = b_from;
        }
        if b_to != 0 {
            self.replicas[a].to = b_to;
        }
        if b_id_to != 0 {
            self.replicas[a].id_to = b_id_to;
        }
        let (from, to) = (self.replicas[a].from, self.replicas[a].to);
        self.replicas[a].content = self.slice(from, to);
        self.detach(b);
    }

    pub(super) fn is_text_replica(&self, r: Option<ReplicaId>) -> bool {
        r.is_some_and(|r| self.replicas[r].is_text)
    }

    /// Blank removal, sentence-breaking detection and conversion (B.3). With `inline_only`
    /// (the T&C hierarchy's mode), only inline elements (not block-level ones, not
    /// `br`/`hr`/`img`) can be sentence-breaking, and a style key is converted only when most
    /// of its elements break a sentence: one bold phrase inside a sentence does not turn five
    /// bold title lines at the same tag path into body text. The reference accepts any replica
    /// and converts a key on its first sentence-breaking instance.
    pub fn preprocess(&mut self, inline_only: bool) {
        // 1. Blank removal.
        for r in 1..self.replicas.len() {
            if self.replicas[r].is_text && self.replicas[r].content.is_empty() {
                self.detach(r);
            }
        }
        // 2. Detection; the first instance in document order wins for a key.
        let mut breaking: HashMap<StyleKey, (StyleKey, Style)> = HashMap::new();
        // Elements per key: (all, sentence-breaking), for the majority rule of `inline_only`.
        let mut counts: HashMap<StyleKey, (usize, usize)> = HashMap::new();
        for r in self.preorder() {
            if r == 0 {
                continue;
            }
            let x = &self.replicas[r];
            if inline_only
                && (x.is_text || is_block(&x.name) || matches!(&*x.name, "br" | "hr" | "img"))
            {
                continue;
            }
            let count = counts.entry(x.key).or_default();
            count.0 += 1;
            let (prev, next) = (self.prev(r), self.next(r));
            if self.is_text_replica(prev) && self.is_text_replica(next) {
                count.1 += 1;
                self.breaking_nodes.push(r);
                if let Some(n) = next {
                    let n = &self.replicas[n];
                    breaking.entry(x.key).or_insert((n.key, n.style));
                }
            }
        }
        if inline_only {
            breaking.retain(|k, _| counts.get(k).is_some_and(|&(all, br)| br * 2 > all));
        }
        if breaking.is_empty() {
            return;
        }
        // 3. Conversion, in reverse document order, not descending into converted replicas.
        let mut stack = vec![0];
        while let Some(r) = stack.pop() {
            if !self.replicas[r].attached {
                continue;
            }
            let conv = if r == 0 || self.replicas[r].is_text {
                None
            } else {
                breaking.get(&self.replicas[r].key).copied()
            };
            match conv {
                Some((key, style)) => {
                    self.converted.push((r, self.replicas[r].id_to, style));
                    self.to_text(r);
                    let mut current = r;
                    if let Some(p) = self.prev(r).filter(|&p| self.replicas[p].is_text) {
                        self.merge(p, r);
                        current = p;
                    }
                    if let Some(n) = self.next(current).filter(|&n| self.replicas[n].is_text) {
                        self.merge(current, n);
                    }
                    self.replicas[current].key = key;
                    self.replicas[current].style = style;
                }
                None => {
                    let mut c = self.replicas[r].first_child;
                    while c != NONE {
                        stack.push(c);
                        c = self.replicas[c].next;
                    }
                }
            }
        }
    }
}
