//! The measures of `docs/algorithms.md#measures` as pure functions over text and heading trees.
//!
//! Everything here is independent of the analysis: it compares an extracted text or tree with
//! a gold one. See `docs/eval.md` for the decisions taken where the definitions leave room.

use std::collections::HashMap;

use serde::Serialize;

/// How many gold tokens make the opening (and closing) that start/end look for.
pub const EDGE_TOKENS: usize = 8;
/// How many extra tokens may precede the gold opening (or follow the gold closing) for a
/// start (end) to still count as correct.
pub const EDGE_SLACK: usize = 8;
/// A matched section's content is right only when the token F1 of its text (own paragraphs
/// plus subsections) against the gold section's text reaches this, where both texts are known.
pub const CONTENT_MIN_F1: f64 = 0.8;

/// Characters dropped before tokenising (soft hyphen, zero-width characters, BOM).
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}' | '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}'
    )
}

/// Lower-cased word tokens: maximal runs of alphanumeric characters. Soft hyphens and
/// zero-width characters are dropped first, so `Ver\u{ad}trag` is one token.
pub fn tokens(text: &str) -> Vec<String> {
    token_spans(text).into_iter().map(|(_, t)| t).collect()
}

/// [`tokens`] with the byte range each token covers in `text`.
pub fn token_spans(text: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut start = 0;
    let mut end = 0;
    for (i, c) in text.char_indices() {
        if is_invisible(c) {
            continue;
        }
        if c.is_alphanumeric() {
            if cur.is_empty() {
                start = i;
            }
            cur.extend(c.to_lowercase());
            end = i + c.len_utf8();
        } else if !cur.is_empty() {
            out.push((start..end, std::mem::take(&mut cur)));
        }
    }
    if !cur.is_empty() {
        out.push((start..end, cur));
    }
    out
}

/// Precision, recall and F1 of one comparison.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Prf {
    /// Share of the extracted items that are in the gold.
    pub precision: f64,
    /// Share of the gold items that were extracted.
    pub recall: f64,
    /// Harmonic mean of precision and recall (0 when both are 0).
    pub f1: f64,
}

impl Prf {
    /// P/R/F1 from the number of matched, extracted and gold items.
    ///
    /// Conventions for empty sides: nothing extracted and nothing in the gold is a perfect 1;
    /// otherwise an empty side gives 0 for the ratio it cannot support.
    pub fn from_counts(matched: usize, extracted: usize, gold: usize) -> Prf {
        if extracted == 0 && gold == 0 {
            return Prf {
                precision: 1.0,
                recall: 1.0,
                f1: 1.0,
            };
        }
        let precision = if extracted == 0 {
            0.0
        } else {
            matched as f64 / extracted as f64
        };
        let recall = if gold == 0 {
            0.0
        } else {
            matched as f64 / gold as f64
        };
        let f1 = if precision + recall == 0.0 {
            0.0
        } else {
            2.0 * precision * recall / (precision + recall)
        };
        Prf {
            precision,
            recall,
            f1,
        }
    }
}

/// Token precision/recall/F1 over bags (multisets) of lower-cased word tokens.
pub fn token_prf(extracted: &str, gold: &str) -> Prf {
    bag_prf(&tokens(extracted), &tokens(gold))
}

/// P/R/F1 of two token bags given as sequences.
pub fn bag_prf(extracted: &[String], gold: &[String]) -> Prf {
    let mut bag: HashMap<&str, usize> = HashMap::new();
    for t in gold {
        *bag.entry(t.as_str()).or_default() += 1;
    }
    let mut matched = 0;
    for t in extracted {
        if let Some(n) = bag.get_mut(t.as_str())
            && *n > 0
        {
            *n -= 1;
            matched += 1;
        }
    }
    Prf::from_counts(matched, extracted.len(), gold.len())
}

/// The paper's classes for where the extracted content starts (or ends). Ordered as reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// The gold opening (closing) is there with at most [`EDGE_SLACK`] extra tokens before
    /// (after) it.
    Correct,
    /// Start: more than [`EDGE_SLACK`] extra tokens precede the gold opening.
    /// End: the gold closing is missing (the extraction stopped before it).
    TooEarly,
    /// Start: the gold opening is missing (the extraction began after it).
    /// End: more than [`EDGE_SLACK`] extra tokens follow the gold closing.
    TooLate,
    /// The page could not be processed.
    ProcessingError,
}

impl Edge {
    /// All classes in report order.
    pub const ALL: [Edge; 4] = [
        Edge::Correct,
        Edge::TooEarly,
        Edge::TooLate,
        Edge::ProcessingError,
    ];

    /// A short label for tables.
    pub fn label(self) -> &'static str {
        match self {
            Edge::Correct => "correct",
            Edge::TooEarly => "too early",
            Edge::TooLate => "too late",
            Edge::ProcessingError => "error",
        }
    }
}

/// Position of the first occurrence of `needle` in `hay` (`None` for an empty needle).
pub fn find_first(hay: &[String], needle: &[String]) -> Option<usize> {
    if needle.is_empty() || needle.len() > hay.len() {
        return None;
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Position of the last occurrence of `needle` in `hay` (`None` for an empty needle).
pub fn find_last(hay: &[String], needle: &[String]) -> Option<usize> {
    if needle.is_empty() || needle.len() > hay.len() {
        return None;
    }
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// The first [`EDGE_TOKENS`] tokens of a gold text (all of them when it is shorter).
pub fn opening(gold: &[String]) -> &[String] {
    &gold[..gold.len().min(EDGE_TOKENS)]
}

/// The last [`EDGE_TOKENS`] tokens of a gold text (all of them when it is shorter).
pub fn closing(gold: &[String]) -> &[String] {
    &gold[gold.len().saturating_sub(EDGE_TOKENS)..]
}

/// Start class of an extraction (tokens) against the gold opening (its first tokens).
///
/// The first occurrence of the opening counts. An empty opening (a gold without tokens)
/// cannot be checked and counts as correct.
pub fn start_class(extracted: &[String], gold_opening: &[String]) -> Edge {
    if gold_opening.is_empty() {
        return Edge::Correct;
    }
    match find_first(extracted, gold_opening) {
        Some(p) if p <= EDGE_SLACK => Edge::Correct,
        Some(_) => Edge::TooEarly,
        None => Edge::TooLate,
    }
}

/// End class of an extraction (tokens) against the gold closing (its last tokens); the
/// mirror of [`start_class`] using the last occurrence.
pub fn end_class(extracted: &[String], gold_closing: &[String]) -> Edge {
    if gold_closing.is_empty() {
        return Edge::Correct;
    }
    match find_last(extracted, gold_closing) {
        Some(p) if extracted.len() - (p + gold_closing.len()) <= EDGE_SLACK => Edge::Correct,
        Some(_) => Edge::TooLate,
        None => Edge::TooEarly,
    }
}

/// Folds case, whitespace and trailing punctuation of a title: `"  1.  Geltungs\u{a0}bereich: "`
/// becomes `"1. geltungs bereich"`.
pub fn normalize_title(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    let mut space = false;
    for c in title.chars() {
        if is_invisible(c) {
            continue;
        }
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.extend(c.to_lowercase());
    }
    let trimmed = out.trim_end_matches(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '.' | ':' | ';' | ',' | '!' | '?' | '*' | '-' | '–' | '—' | '…'
            )
    });
    trimmed.to_owned()
}

/// Words that may introduce a number in a heading (`§ 3`, `Artikel 2`, `Section 4`).
const NUMBER_WORDS: &[&str] = &[
    "§§",
    "§",
    "artikel",
    "article",
    "art.",
    "art",
    "abschnitt",
    "section",
    "sec.",
    "ziffer",
    "ziff.",
    "nr.",
    "teil",
    "part",
    "kapitel",
    "chapter",
    "clause",
    "klausel",
];

/// Length in bytes of one enumeration token at the start of `s` (`1.`, `1.2.3`, `12`, `IV.`,
/// `a)`, `(1)`, `(iv)`), or 0.
fn enumeration_len(s: &str) -> usize {
    let b = s.as_bytes();
    let is_sep = |i: usize| i >= b.len() || !b[i].is_ascii_alphanumeric();
    // (x) with 1–4 alphanumerics
    if b.first() == Some(&b'(') {
        let inner = b[1..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        if (1..=4).contains(&inner) && b.get(1 + inner) == Some(&b')') {
            return inner + 2;
        }
        return 0;
    }
    // Arabic numbers with dots: 1, 1., 1.2, 1.2.3.
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if (1..=3).contains(&digits) {
        let mut i = digits;
        loop {
            if b.get(i) == Some(&b'.') {
                let more = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
                if (1..=3).contains(&more) {
                    i += 1 + more;
                    continue;
                }
                i += 1;
            }
            break;
        }
        if b.get(i) == Some(&b')') {
            i += 1;
        }
        return if is_sep(i) { i } else { 0 };
    }
    if digits > 0 {
        return 0;
    }
    // Roman numerals with a dot or parenthesis: IV. / iv)
    let roman = b
        .iter()
        .take_while(|c| b"ivxlcdm".contains(&c.to_ascii_lowercase()))
        .count();
    if (1..=5).contains(&roman) && matches!(b.get(roman), Some(b'.' | b')')) && is_sep(roman + 1) {
        return roman + 1;
    }
    // One letter with a parenthesis or dot: a) / b.
    if b.first().is_some_and(|c| c.is_ascii_alphabetic())
        && matches!(b.get(1), Some(b')' | b'.'))
        && is_sep(2)
    {
        return 2;
    }
    0
}

/// Strips a leading numbering (`§ 3`, `1.2`, `Art. 4`, `IV.`, `a)`, `(1)`) with its separator
/// from a normalised title. Returns the title unchanged when nothing remains after it.
pub fn strip_numbering(normalized: &str) -> &str {
    let mut rest = normalized;
    for word in NUMBER_WORDS {
        if let Some(r) = rest.strip_prefix(word) {
            let r2 = r.trim_start();
            if enumeration_len(r2) > 0 {
                rest = r2;
                break;
            }
        }
    }
    let n = enumeration_len(rest);
    if n == 0 {
        return normalized;
    }
    let after = rest[n..].trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, '-' | '–' | '—' | ':' | '.' | ')' | '|' | '/')
    });
    if after.chars().any(char::is_alphanumeric) {
        after
    } else {
        normalized
    }
}

/// The key headings are matched by: the normalised title without its numbering.
pub fn heading_key(title: &str) -> String {
    let n = normalize_title(title);
    strip_numbering(&n).to_owned()
}

/// A heading tree, extracted or gold.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct HeadingNode {
    /// The heading as written (with its numbering when it has one).
    pub title: String,
    /// The text of the section: its own paragraphs followed by its subsections'. `None` when
    /// unknown (hand-labelled golds give titles only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Subsections in document order.
    pub children: Vec<HeadingNode>,
}

/// A heading tree flattened in pre-order.
#[derive(Debug, Clone)]
pub struct FlatHeading {
    /// The title as written.
    pub title: String,
    /// [`normalize_title`] of the title.
    pub normalized: String,
    /// [`heading_key`] of the title.
    pub key: String,
    /// Index of the parent heading, `None` at top level.
    pub parent: Option<usize>,
    /// End (exclusive) of this heading's descendants: they are `index + 1 .. end`.
    pub end: usize,
    /// The section text when known.
    pub text: Option<String>,
}

/// Flattens a tree in pre-order.
pub fn flatten(nodes: &[HeadingNode]) -> Vec<FlatHeading> {
    fn walk(nodes: &[HeadingNode], parent: Option<usize>, out: &mut Vec<FlatHeading>) {
        for node in nodes {
            let i = out.len();
            let normalized = normalize_title(&node.title);
            let key = strip_numbering(&normalized).to_owned();
            out.push(FlatHeading {
                title: node.title.clone(),
                normalized,
                key,
                parent,
                end: i + 1,
                text: node.text.clone(),
            });
            walk(&node.children, Some(i), out);
            out[i].end = out.len();
        }
    }
    let mut out = Vec::new();
    walk(nodes, None, &mut out);
    out
}

/// One-to-one matching of extracted to gold headings by [`heading_key`]: the longest
/// order-preserving matching first (LCS), then leftover equal keys greedily in order (a
/// section that moved still counts as found).
///
/// Returns, per extracted heading, the index of its gold heading.
pub fn match_headings(extracted: &[FlatHeading], gold: &[FlatHeading]) -> Vec<Option<usize>> {
    let n = extracted.len();
    let m = gold.len();
    let mut matches = vec![None; n];
    if n == 0 || m == 0 {
        return matches;
    }
    // Intern keys so the LCS compares integers.
    let mut ids: HashMap<&str, u32> = HashMap::new();
    for h in extracted.iter().chain(gold) {
        let next = ids.len() as u32;
        ids.entry(h.key.as_str()).or_insert(next);
    }
    let ek: Vec<u32> = extracted.iter().map(|h| ids[h.key.as_str()]).collect();
    let gk: Vec<u32> = gold.iter().map(|h| ids[h.key.as_str()]).collect();
    // LCS table, (n+1) x (m+1), suffix form.
    let w = m + 1;
    let mut t = vec![0u32; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            t[i * w + j] = if ek[i] == gk[j] {
                t[(i + 1) * w + j + 1] + 1
            } else {
                t[(i + 1) * w + j].max(t[i * w + j + 1])
            };
        }
    }
    let mut gold_used = vec![false; m];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if ek[i] == gk[j] {
            matches[i] = Some(j);
            gold_used[j] = true;
            i += 1;
            j += 1;
        } else if t[(i + 1) * w + j] >= t[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    for i in 0..n {
        if matches[i].is_some() {
            continue;
        }
        if let Some(j) = (0..m).find(|&j| !gold_used[j] && gk[j] == ek[i]) {
            matches[i] = Some(j);
            gold_used[j] = true;
        }
    }
    matches
}

/// The hierarchy measures of one page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HierarchyScore {
    /// Number of extracted headings.
    pub extracted: usize,
    /// Number of gold headings.
    pub gold: usize,
    /// Number of matched pairs.
    pub matched: usize,
    /// Heading precision/recall/F1.
    pub prf: Prf,
    /// Matched headings whose parent is right.
    pub parent_correct: usize,
    /// `parent_correct / matched`; `None` when nothing matched.
    pub parent_accuracy: Option<f64>,
    /// The paper's error score: mean over extracted sections of 0 (right), +0.4 wrong parent,
    /// +0.5 wrong content, +0.1 wrong title, 1.0 unmatched. 1.0 when nothing was extracted
    /// but the gold has headings.
    pub error_score: f64,
    /// Per extracted heading: the index of its gold heading.
    pub matches: Vec<Option<usize>>,
    /// Per extracted heading: its error (0 to 1).
    pub section_errors: Vec<f64>,
}

/// Whether the parent of extracted heading `e` corresponds to the parent of gold heading `g`.
fn parent_right(
    e: usize,
    g: usize,
    extracted: &[FlatHeading],
    gold: &[FlatHeading],
    matches: &[Option<usize>],
) -> bool {
    match (extracted[e].parent, gold[g].parent) {
        (None, None) => true,
        (Some(pe), Some(pg)) => matches[pe] == Some(pg),
        _ => false,
    }
}

/// Whether a matched section spans the right content: the matched headings below it are
/// exactly the matched gold headings below its gold heading and, where both texts are known,
/// its text reaches [`CONTENT_MIN_F1`] against the gold section's.
fn content_right(
    e: usize,
    g: usize,
    extracted: &[FlatHeading],
    gold: &[FlatHeading],
    matches: &[Option<usize>],
    gold_matched: &[bool],
) -> bool {
    let mut below_e: Vec<usize> = (e + 1..extracted[e].end)
        .filter_map(|d| matches[d])
        .collect();
    below_e.sort_unstable();
    let below_g: Vec<usize> = (g + 1..gold[g].end).filter(|&d| gold_matched[d]).collect();
    if below_e != below_g {
        return false;
    }
    match (&extracted[e].text, &gold[g].text) {
        (Some(te), Some(tg)) => token_prf(te, tg).f1 >= CONTENT_MIN_F1,
        _ => true,
    }
}

/// Heading P/R/F1, parent accuracy and the paper's error score of an extracted tree against a
/// gold tree.
pub fn hierarchy_score(extracted: &[HeadingNode], gold: &[HeadingNode]) -> HierarchyScore {
    let ef = flatten(extracted);
    let gf = flatten(gold);
    let matches = match_headings(&ef, &gf);
    let mut gold_matched = vec![false; gf.len()];
    for g in matches.iter().flatten() {
        gold_matched[*g] = true;
    }
    let matched = matches.iter().flatten().count();
    let mut parent_correct = 0;
    let mut section_errors = Vec::with_capacity(ef.len());
    for (e, m) in matches.iter().enumerate() {
        let Some(g) = *m else {
            section_errors.push(1.0);
            continue;
        };
        let mut err = 0.0;
        if parent_right(e, g, &ef, &gf, &matches) {
            parent_correct += 1;
        } else {
            err += 0.4;
        }
        if !content_right(e, g, &ef, &gf, &matches, &gold_matched) {
            err += 0.5;
        }
        if ef[e].normalized != gf[g].normalized {
            err += 0.1;
        }
        section_errors.push(err);
    }
    let error_score = if ef.is_empty() {
        if gf.is_empty() { 0.0 } else { 1.0 }
    } else {
        section_errors.iter().sum::<f64>() / ef.len() as f64
    };
    HierarchyScore {
        extracted: ef.len(),
        gold: gf.len(),
        matched,
        prf: Prf::from_counts(matched, ef.len(), gf.len()),
        parent_correct,
        parent_accuracy: (matched > 0).then(|| parent_correct as f64 / matched as f64),
        error_score,
        matches,
        section_errors,
    }
}

/// Upper bounds of the error-score buckets after the exact 0 bucket: (0;0.05], (0.05;0.1],
/// (0.1;0.2], (0.2;0.3], (0.3;0.5], (0.5;1].
pub const BUCKET_BOUNDS: [f64; 6] = [0.05, 0.1, 0.2, 0.3, 0.5, 1.0];

/// Labels of the buckets, the exact-0 bucket first.
pub fn bucket_labels() -> Vec<String> {
    let mut out = vec!["0".to_owned()];
    let mut lo = 0.0;
    for hi in BUCKET_BOUNDS {
        out.push(format!("({lo};{hi}]"));
        lo = hi;
    }
    out
}

/// The bucket index of an error score: 0 for exactly 0, then by [`BUCKET_BOUNDS`] (scores
/// above 1 fall in the last bucket).
pub fn bucket(score: f64) -> usize {
    // Sums of 0.1/0.4/0.5 carry rounding noise; fold it.
    let s = (score * 1e9).round() / 1e9;
    if s <= 0.0 {
        return 0;
    }
    BUCKET_BOUNDS
        .iter()
        .position(|&hi| s <= hi)
        .map_or(BUCKET_BOUNDS.len(), |p| p + 1)
}

/// Counts per bucket of a set of error scores.
pub fn histogram(scores: impl IntoIterator<Item = f64>) -> Vec<usize> {
    let mut h = vec![0; BUCKET_BOUNDS.len() + 1];
    for s in scores {
        h[bucket(s)] += 1;
    }
    h
}

#[cfg(test)]
mod tests;
