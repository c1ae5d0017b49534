//! Phase 7 of the role decision: what the sequence of headings says about their levels — a
//! title printed twice is one, a lead `h1` or a document name over `§` sections is the root,
//! a decimal sub-number among clauses is one of them.

use super::*;

/// The headings among `roles` (block index and rank), in document order.
fn headings(roles: &[Role]) -> Vec<(usize, u32)> {
    roles
        .iter()
        .enumerate()
        .filter_map(|(i, r)| match r {
            Role::Heading { rank, .. } => Some((i, *rank)),
            _ => None,
        })
        .collect()
}

/// A heading that repeats the heading right before it, with nothing between them (a theme's
/// entry title over the legal text's own title), is the same title printed twice: a reader
/// sees one title, so the second copy is text. Otherwise the first copy would head an empty
/// section and the second take every section as its own.
pub(super) fn a_repeated_title_is_one(blocks: &[Block], roles: &mut [Role]) {
    // The heading the run of copies started with (a title printed three times is one too).
    let mut first: Option<usize> = None;
    for i in 0..roles.len() {
        if !matches!(roles[i], Role::Heading { .. }) {
            first = None;
            continue;
        }
        match first {
            Some(f) if fold(&blocks[i].text) == fold(&blocks[f].text) => roles[i] = Role::Text,
            _ => first = Some(i),
        }
    }
}

/// The one `h1` of the content, when it is the content's first heading, is the document's
/// title: every later heading belongs to it, even one drawn larger. The author's markup says
/// so, and sizes we compute can be wrong in just this way (a site's own style sheet, which we
/// do not load, usually shrinks the `h2`s that user-agent defaults draw larger than an `h1`
/// sized inline). Ranks are odd ([`Candidates::rank_levels`]), so rank 0 is above them all.
/// Pages naming several documents are left to the document rule.
pub(super) fn lead_title_holds_the_rest(blocks: &[Block], roles: &mut [Role]) {
    let is_h1 = |i: usize| blocks[i].kind == BlockKind::Heading(1);
    let mut headings = headings(roles).into_iter().map(|(i, _)| i);
    let Some(first) = headings.next() else {
        return;
    };
    let mut rest = headings.peekable();
    if !is_h1(first) || rest.peek().is_none() || rest.any(is_h1) {
        return;
    }
    if let Role::Heading { rank, .. } = &mut roles[first] {
        *rank = 0;
    }
}

/// The content's first heading, unnumbered and naming a document ("AGB & Widerrufsrecht"), is
/// the title of the numbered headings that share its tag or look when their numbering opens
/// with `§` or a Roman part: `<h2>AGB</h2><h2>§ 1 …</h2><h2>§ 2 …</h2>` (two numbered ones at
/// least, the first and the last numbered; an unnumbered one between two of them belongs to the
/// one before it). `§` sections and Roman parts are the structure of a legal text, so the name
/// above them is the text's title, as the markup does not say; the vocabulary only breaks the
/// tie with an unnumbered first section ("Einleitung"), which stays their sibling. Other
/// numberings ("Article 1:" under an `h1` title of the same tag) are left to the markup: the
/// English golds keep those titles and sections on one level.
pub(super) fn title_over_numbered_peers(blocks: &[Block], roles: &mut [Role]) {
    let mut headings = headings(roles).into_iter();
    let Some((first, rank)) = headings.next() else {
        return;
    };
    if rank == 0 || blocks[first].enumeration.is_some() || !names_a_document(&blocks[first].text) {
        return;
    }
    // Unnumbered peers between two numbered ones belong to the number before them
    // ([One pattern per level]); the first and the last peer must be numbered.
    let peers: Vec<Option<&Enumeration>> = headings
        .filter(|&(_, r)| r == rank)
        .map(|(i, _)| blocks[i].enumeration.as_ref())
        .collect();
    let numbered = peers.iter().filter(|e| e.is_some()).count();
    // The first peer opens the text's structure with a `§` or a Roman part number.
    let legal_structure =
        peers.first().copied().flatten().is_some_and(|e| {
            e.decoration == Decoration::Section || e.kind == NumberKind::RomanUpper
        });
    if numbered < 2 || !legal_structure || peers.last().is_some_and(Option::is_none) {
        return;
    }
    if let Role::Heading { rank, .. } = &mut roles[first] {
        *rank = 0;
    }
}

/// A heading that opens the content and heads nothing — the next block is a heading of its
/// level or a more prominent one, which holds the sections — is the site's, not the
/// document's: "My Account" or "Help Centre" over "Privacy Policy". It becomes text, so the
/// document's title heads the tree. A heading that names a document stays (a page title
/// over the document's own in other words).
pub(super) fn an_empty_opening_heading_is_text(blocks: &[Block], roles: &mut [Role]) {
    let mut headings = headings(roles).into_iter();
    let (Some((first, rank)), Some((next, next_rank))) = (headings.next(), headings.next()) else {
        return;
    };
    let holds_sections = headings.any(|(_, r)| r > next_rank);
    if next == first + 1
        && next_rank <= rank
        && holds_sections
        && blocks[first].enumeration.is_none()
        && !names_a_document(&blocks[first].text)
    {
        roles[first] = Role::Text;
    }
}

/// Whether the next block numbered in the class of block `i`'s enumeration `e` continues its
/// sequence and is text ([`is_title_shaped`] fails): numbered titles are titles throughout
/// their sequence, so a short line among long clauses ("2.1 Die zur Verfügung stehende(n)
/// Sprache(n): Deutsch", then "2.2 Wir speichern den Vertragstext …") is a clause too. Not
/// judged so: a question (a title whatever follows), and a line whose successor is a piece of
/// a sentence (a list run numbered on under it: "3. Purposes", then "4. To provide the
/// service; and").
pub(super) fn next_in_sequence_is_text(
    blocks: &[Block],
    enums: &[Option<Enumeration>],
    i: usize,
    e: &Enumeration,
) -> bool {
    if is_question(&blocks[i].text) {
        return false;
    }
    let class = e.class();
    enums
        .iter()
        .enumerate()
        .skip(i + 1)
        .find_map(|(j, next)| next.as_ref().filter(|n| n.class() == class).map(|n| (j, n)))
        .is_some_and(|(j, next)| {
            next.is_successor_of(e)
                && !is_title_shaped(&blocks[j])
                && !continues_a_sentence(&blocks[j])
        })
}
