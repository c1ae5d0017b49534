//! Enumerations over the whole page: ambiguous prefixes resolved, sequences confirmed,
//! tables of contents and lists of titles recognised.

use super::*;

/// Heading-tag blocks that are the whole content of their list item, in runs of at least
/// [`MIN_TOC_RUN`] such items: a list of titles (a table of contents, a list styled with
/// heading tags), not section headings. A heading followed by text in its item stays one.
pub(super) fn heading_list_entries(blocks: &[Block]) -> Vec<usize> {
    let mut per_item: HashMap<NodeId, usize> = HashMap::new();
    for b in blocks {
        if let Some(li) = b.list_item {
            *per_item.entry(li).or_default() += 1;
        }
    }
    let entry = |b: &Block| {
        matches!(b.kind, BlockKind::Heading(_))
            && b.list_item.is_some_and(|li| per_item.get(&li) == Some(&1))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < blocks.len() {
        let start = i;
        while i < blocks.len() && entry(&blocks[i]) {
            i += 1;
        }
        if i - start >= MIN_TOC_RUN {
            out.extend(start..i);
        }
        if i == start {
            i += 1;
        }
    }
    out
}

/// Marks tables of contents: runs of at least [`MIN_TOC_RUN`] short numbered or link-only
/// blocks of which at least half reappear later in the page (same text, or the same number
/// followed by the same first word).
pub(super) fn toc_mask(blocks: &[Block], enums: &[Option<Enumeration>]) -> Vec<bool> {
    let mut mask = vec![false; blocks.len()];
    let entry = |i: usize| {
        let b = &blocks[i];
        // `(1)` clauses are paragraphs of a section, never entries of a contents list.
        b.words <= MAX_TITLE_WORDS && !is_numbered_clause(b) && (enums[i].is_some() || b.link_only)
    };
    // Folded once per short block (the only ones whose text can repeat an entry's).
    let folded: Vec<Option<String>> = blocks
        .iter()
        .map(|b| (b.words <= MAX_TITLE_WORDS + 1).then(|| fold(&b.text)))
        .collect();
    let key_text = |i: usize| -> std::borrow::Cow<'_, str> {
        match &folded[i] {
            Some(f) => std::borrow::Cow::Borrowed(f.as_str()),
            None => std::borrow::Cow::Owned(fold(&blocks[i].text)),
        }
    };
    let key_number = |i: usize| {
        enums[i].as_ref().map(|e| {
            let first = e
                .rest(&blocks[i].text)
                .split_whitespace()
                .next()
                .unwrap_or("");
            // Same number of the same class: "§ 6 Gewährleistung" is not an entry for a later
            // "6. Gewährleistung" of another document on the page.
            format!(
                "{:?}\u{1}{}\u{1}{}",
                e.class(),
                e.values
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join("."),
                first.to_lowercase()
            )
        })
    };
    // Last position of every key.
    let mut last_text: HashMap<String, usize> = HashMap::new();
    let mut last_number: HashMap<String, usize> = HashMap::new();
    for (i, block) in blocks.iter().enumerate() {
        // Only short blocks can repeat an entry's text (folding may drop a final "." word).
        if block.words <= MAX_TITLE_WORDS + 1 {
            last_text.insert(key_text(i).into_owned(), i);
        }
        if let Some(k) = key_number(i) {
            last_number.insert(k, i);
        }
    }
    let mut i = 0;
    while i < blocks.len() {
        if !entry(i) {
            i += 1;
            continue;
        }
        let start = i;
        // A run ends where an entry repeats one of its own: the real headings begin there.
        let mut keys: HashSet<std::borrow::Cow<'_, str>> = HashSet::new();
        while i < blocks.len() && entry(i) && keys.insert(key_text(i)) {
            i += 1;
        }
        let end = i;
        if end - start < MIN_TOC_RUN {
            continue;
        }
        let again = (start..end)
            .filter(|&j| {
                last_text
                    .get(key_text(j).as_ref())
                    .is_some_and(|&p| p >= end)
                    || key_number(j)
                        .and_then(|k| last_number.get(&k).copied())
                        .is_some_and(|p| p >= end)
            })
            .count();
        if again * 2 >= end - start && again >= 2 {
            for m in &mut mask[start..end] {
                *m = true;
            }
        }
    }
    mask
}

pub(super) fn fold(s: &str) -> String {
    // One pass, one allocation: the words lower-cased between single spaces.
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        if word.is_ascii() {
            // Most words: copied at once and lower-cased in place.
            let start = out.len();
            out.push_str(word);
            out[start..].make_ascii_lowercase();
        } else {
            out.extend(word.chars().flat_map(char::to_lowercase));
        }
    }
    let kept = out.trim_end_matches(['.', ':', ' ']).len();
    out.truncate(kept);
    out
}

/// Picks the reading of ambiguous one-letter prefixes (`i)` after `h)` is a letter, `i)`
/// before `ii)` is Roman).
pub(super) fn resolve_enumerations(blocks: &[Block]) -> Vec<Option<Enumeration>> {
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
pub(super) fn confirmed_enumerations(enums: &[Option<Enumeration>]) -> Vec<bool> {
    let mut by_class: HashMap<EnumClass, Vec<usize>> = HashMap::new();
    for (i, e) in enums.iter().enumerate() {
        if let Some(e) = e {
            by_class.entry(e.class()).or_default().push(i);
        }
    }
    let mut confirmed = vec![false; enums.len()];
    for positions in by_class.values() {
        for pair in positions.windows(2) {
            if let (Some(a), Some(b)) = (&enums[pair[0]], &enums[pair[1]])
                && b.is_successor_of(a)
            {
                confirmed[pair[0]] = true;
                confirmed[pair[1]] = true;
            }
        }
    }
    confirmed
}
