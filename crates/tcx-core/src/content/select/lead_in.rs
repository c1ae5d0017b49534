//! The title and lead-in just before the content: the page's heading, a date line, a title box
//! beside a menu or at body level.

use super::*;

/// The search for a lead-in climbs to the parent while the candidate holds at least this
/// share of the parent's visible text.
const CLIMB_COVERAGE: f64 = 0.9;

/// Longest link line (visible characters) the lead-in walks past: "Print | Save", "Go To".
const TINY_ACTION_CHARS: u64 = 24;

/// What the walk back over the preceding siblings of one level found.
struct LeadIn {
    /// Index of the first sibling that belongs to the lead-in (`pos` when none does).
    best_start: usize,
    /// Visible characters of the short siblings walked over.
    used: u64,
    /// A heading inside a title box that also holds links (a language menu).
    deep_heading: Option<ElementId>,
    /// Index of the first sibling walked over, taken or not (a table of contents beside the
    /// text is walked past and not taken).
    walked: usize,
}

/// Walks back from `siblings[pos]` over siblings that are either short (a title, a date
/// line: the run must hold a heading, a title line or a date line) or an introduction in
/// prose; never link lists. `own` is the candidate's visible text, `budget` what short
/// siblings may add.
fn scan_lead_in(
    (stats, page): (&StyleStats, &str),
    sums: &StyleSums,
    siblings: &[ElementId],
    pos: usize,
    (own, budget, titled): (u64, u64, bool),
    limits: &ExtensionLimits,
) -> LeadIn {
    // Under a content that opens with its title, only the page's title or a date line is
    // taken ([`opens_with_its_title`]).
    let belongs = |c: ElementId| {
        !titled
            || is_the_documents_title(page, stats, sums, c)
            || title_line(page, stats, c) == Some(TitleLine::Date)
    };
    let mut start = pos;
    let mut used = 0u64;
    let mut intro = 0u64;
    let mut best_start = pos;
    let mut deep_heading = None;
    // Walked past a tiny action line: beyond it only the document's own title is taken.
    let mut past_action = false;
    while start > 0 && !sums.text_before(siblings[start]) {
        let c = siblings[start - 1];
        let i = c as usize;
        let visible = sums.visible[i].max(1);
        let linky = sums.links[i] as f64 > limits.max_link_share * visible as f64;
        let frame = is_side_frame(stats.tag_name(c));
        // A table of contents beside the text ("On this page" over jump links) is no title
        // box: walked past, not taken, as page frame would be if it were marked up as such.
        if (linky || frame) && is_table_of_contents(page, stats, c) {
            start -= 1;
            past_action = true;
            continue;
        }
        if linky || frame {
            // A tiny action line ("Print | Save", "Go to") or an empty menu between the title
            // and the text is walked past: it is taken only with the document's own title
            // found before it (an `h1`, or a title naming the document), and nothing else is.
            if sums.visible[i] <= TINY_ACTION_CHARS && used + visible <= budget {
                used += visible;
                start -= 1;
                past_action = true;
                continue;
            }
            if past_action {
                break;
            }
            // A title box that also holds links (a language menu): take its heading, or
            // the title line standing before the menu, only. A menu or side column titles
            // itself ("On this page" over a table of contents), not the document.
            if !frame {
                deep_heading = title_in(stats, sums, c).filter(|&h| {
                    sums.visible[h as usize] <= limits.max_lead_in_chars
                        && !in_a_menu(stats, sums, h, c)
                        && belongs(h)
                });
                if deep_heading.is_some() {
                    best_start = start;
                }
            }
            break;
        }
        if past_action && !is_the_documents_title(page, stats, sums, c) {
            break;
        }
        let prose = sums.prose[i] as f64 >= limits.min_prose_share * visible as f64;
        if prose && !titled && (intro + visible) as f64 <= limits.max_intro_share * own as f64 {
            intro += visible;
            start -= 1;
            best_start = start;
            continue;
        }
        if used + visible > budget {
            break;
        }
        used += visible;
        start -= 1;
        if (sums.heading[i] || is_title_line(page, stats, c)) && belongs(c) {
            best_start = start;
        }
    }
    LeadIn {
        best_start,
        used,
        deep_heading,
        walked: start,
    }
}

/// Whether an element is a table of contents: it holds at least two links and all of them
/// lead to places on this page (`href="#…"`). Read from the page's source.
fn is_table_of_contents(page: &str, stats: &StyleStats, id: ElementId) -> bool {
    let Some(source) = page.get(stats.elements[id as usize].range.clone()) else {
        return false;
    };
    let bytes = source.as_bytes();
    let mut links = 0;
    for at in memchr::memmem::find_iter(bytes, b"href=") {
        let target = bytes[at + 5..]
            .iter()
            .find(|b| !matches!(b, b'"' | b'\'' | b' '));
        if target != Some(&b'#') {
            return false;
        }
        links += 1;
    }
    links >= 2
}

/// Page frame beside or below a text that never holds its title: a menu, a side column (a
/// sticky table of contents, "On this page"), a footer, a form.
fn is_side_frame(tag: &str) -> bool {
    matches!(tag, "nav" | "aside" | "footer" | "form" | "menu")
}

/// Whether `heading` sits in a menu, a list, a side column or a form inside `box`: the
/// heading of a drop-down ("Products") or of a login form ("Log in") titles that, not the
/// document.
fn in_a_menu(stats: &StyleStats, sums: &StyleSums, heading: ElementId, boxed: ElementId) -> bool {
    let mut at = sums.parent_of(heading);
    while at != boxed && at != 0 {
        if matches!(
            stats.tag_name(at),
            "nav" | "ul" | "ol" | "li" | "aside" | "form" | "menu"
        ) {
            return true;
        }
        at = sums.parent_of(at);
    }
    false
}

/// Titles sit just outside the LCA surprisingly often (`<h1>` in a box of its own before
/// the text box). Adds the preceding siblings that form a short lead-in holding a heading.
/// When the candidate is all of its parent, the search continues one level up (without
/// changing the candidate unless a lead-in is found there). At the level of the content
/// root's children (the site's frame: header, navigation) only the document's own opening is
/// taken ([`body_level_lead_in`], [`document_title_box`]).
pub(super) fn add_lead_in(
    candidate: &mut Candidate,
    stats: &StyleStats,
    page: &str,
    children: &Children,
    sums: &StyleSums,
    root: ElementId,
    limits: &ExtensionLimits,
) {
    let mut budget = limits.max_lead_in_chars;
    let titled = opens_with_its_title(page, stats, sums, &candidate.elements);
    // The elements standing for the candidate at the current level.
    let mut current = candidate.elements.clone();
    loop {
        let Some(&first) = current.first() else {
            return;
        };
        let parent = sums.parent_of(first);
        if parent == 0 {
            return;
        }
        let siblings = children.of(parent);
        let Some(pos) = siblings.iter().position(|&c| c == first) else {
            return;
        };
        let own: u64 = current.iter().map(|&c| sums.visible[c as usize]).sum();
        if parent == root {
            let lead_in = frame_lead_in((stats, page), sums, siblings, pos, (own, budget), limits);
            candidate.lead_in_elements += lead_in.len();
            candidate.elements.splice(0..0, lead_in);
            return;
        }
        let LeadIn {
            best_start,
            used,
            deep_heading,
            walked,
        } = scan_lead_in(
            (stats, page),
            sums,
            siblings,
            pos,
            (own, budget, titled),
            limits,
        );
        if best_start < pos || deep_heading.is_some() {
            let lead_in = &siblings[best_start..pos];
            budget = budget.saturating_sub(used);
            // New lead-in elements go before those found further down; the content itself
            // stays as chosen (a climbed-to parent may hold a side menu).
            let mut elements: Vec<ElementId> = deep_heading.into_iter().collect();
            elements.extend_from_slice(lead_in);
            let found = elements.len();
            elements.extend_from_slice(&candidate.elements);
            candidate.lead_in_elements += found;
            candidate.elements = elements;
            // Nothing above the document's own title belongs to the document.
            if deep_heading.is_some()
                || lead_in
                    .iter()
                    .any(|&c| is_the_documents_title(page, stats, sums, c))
            {
                return;
            }
            current = lead_in.iter().chain(&current).copied().collect();
        }
        let beside = &siblings[walked..best_start];
        if !covers_parent(sums, beside, &current, parent)
            || budget == 0
            || stats.tag_name(parent) == "main"
        {
            return;
        }
        if stats.tag_name(parent) == "article" {
            if !titled && let Some(title) = title_right_before(page, stats, children, sums, parent)
            {
                candidate.lead_in_elements += 1;
                candidate.elements.insert(0, title);
            }
            return;
        }
        current = vec![parent];
    }
}

/// Whether the elements standing for the candidate (`current`) and what the walk passed
/// beside them (`beside`: a table of contents, an action line) hold (nearly) all of
/// `parent`'s text: then the search for a lead-in climbs to it.
fn covers_parent(
    sums: &StyleSums,
    beside: &[ElementId],
    current: &[ElementId],
    parent: ElementId,
) -> bool {
    let mine: u64 = beside
        .iter()
        .chain(current)
        .map(|&c| sums.visible[c as usize])
        .sum();
    mine as f64 >= CLIMB_COVERAGE * sums.visible[parent as usize] as f64
}

/// The lead-in of a content standing at `siblings[pos]` among the body's children, the
/// site's frame: only the heading elements standing right before the content (a heading
/// before text heads that text: "1. Scope" over the first clause, the document's title over
/// it) with the introduction the document's title heads ([`body_level_lead_in`]), and before
/// them a box holding nothing but a heading that names the document ("AGB", "Privacy
/// Policy": [`document_title_box`]) — unless the headings hold the document's own title, as
/// nothing above that title belongs to the document.
fn frame_lead_in(
    (stats, page): (&StyleStats, &str),
    sums: &StyleSums,
    siblings: &[ElementId],
    pos: usize,
    (own, budget): (u64, u64),
    limits: &ExtensionLimits,
) -> Vec<ElementId> {
    let (headings, has_title) =
        body_level_lead_in((stats, page), sums, siblings, pos, (own, budget), limits);
    let title = (!has_title)
        .then(|| document_title_box((stats, page), sums, siblings, headings, limits))
        .flatten();
    title
        .into_iter()
        .chain(siblings[headings..pos].iter().copied())
        .collect()
}

/// Where the lead-in of a content standing among the body's children starts. Walks back over
/// the heading elements (`h1`–`h6`, without links, within `budget` visible characters) and
/// prose paragraphs (within [`ExtensionLimits::max_intro_share`] of the content's text) right
/// before `siblings[pos]`, no text between them:
/// - a heading that names a legal document ("Privacy Policy", "HQ Terms of Use") opens the
///   document: everything from it on is taken, and the walk ends;
/// - any other `h1` opens it only when no other heading stands between it and the content;
/// - numbered headings (`h1`–`h3` opening with an enumeration: "1. Accepting the Terms")
///   right before the content, with no introduction between, head its first clause and are
///   taken;
/// - another heading ("Willkommen im Shop") is taken only under a heading that names the
///   document.
///
/// Returns where the lead-in starts (`pos` when nothing is taken) and whether it opens with
/// the document's own title.
fn body_level_lead_in(
    (stats, page): (&StyleStats, &str),
    sums: &StyleSums,
    siblings: &[ElementId],
    pos: usize,
    (own, budget): (u64, u64),
    limits: &ExtensionLimits,
) -> (usize, bool) {
    let mut start = pos;
    let mut best_start = pos;
    let (mut used, mut intro) = (0u64, 0u64);
    // Headings walked over that neither number a clause nor name the document.
    let mut other_headings = 0;
    while start > 0 && !sums.text_before(siblings[start]) {
        let c = siblings[start - 1];
        let i = c as usize;
        let visible = sums.visible[i];
        let tag = stats.tag_name(c);
        if is_heading_tag(tag) {
            if sums.links[i] > 0 || used + visible > budget {
                break;
            }
            used += visible;
            start -= 1;
            let text = heading_text(stats, c);
            let names_the_document = text
                .is_some_and(crate::structure::hierarchy::names_a_document)
                || title_line(page, stats, c) == Some(TitleLine::DocumentName);
            if names_the_document {
                return (start, true);
            }
            if tag == "h1" {
                // The numbered headings taken below an `h1` past other headings are no title.
                return if other_headings == 0 {
                    (start, true)
                } else {
                    (best_start, false)
                };
            }
            let numbered = text.is_some_and(|t| crate::structure::enumeration::detect(t).is_some());
            if numbered && other_headings == 0 && intro == 0 {
                best_start = start;
            } else {
                other_headings += 1;
            }
            continue;
        }
        // An introduction in prose paragraphs: short next to the content, few links.
        let prose = tag == "p"
            && sums.prose[i] as f64 >= limits.min_prose_share * visible as f64
            && sums.links[i] as f64 <= limits.max_link_share * visible as f64;
        if !prose || (intro + visible) as f64 > limits.max_intro_share * own as f64 {
            break;
        }
        intro += visible;
        start -= 1;
    }
    // Only numbered headings are taken here, and none of them is the document's title.
    (best_start, false)
}

/// The sibling just before `siblings[pos]` at the level of the body's children (the site
/// frame) when it is the content's title: an `h1` element itself (the page's own heading,
/// whatever it says), or an `h2`/`h3` or a box holding nothing but a heading, when that
/// heading names a legal document ("AGB", "Privacy Policy"; "Willkommen im Shop" is not), or
/// a box holding an `h1` and its date line, nothing else (a hero box); of a box holding an
/// `h1` that names a legal document beside other short lines, the `h1` alone.
pub(super) fn document_title_box(
    (stats, page): (&StyleStats, &str),
    sums: &StyleSums,
    siblings: &[ElementId],
    pos: usize,
    limits: &ExtensionLimits,
) -> Option<ElementId> {
    if pos == 0 || sums.text_before(siblings[pos]) {
        return None;
    }
    let c = siblings[pos - 1];
    let i = c as usize;
    if !sums.heading[i] || sums.links[i] > 0 || sums.visible[i] > limits.max_lead_in_chars {
        return None;
    }
    let tag = stats.tag_name(c);
    if is_heading_tag(tag) {
        let names =
            heading_text(stats, c).is_some_and(crate::structure::hierarchy::names_a_document);
        return (tag == "h1" || names).then_some(c);
    }
    let heading = title_in(stats, sums, c)?;
    let text = heading_text(stats, heading)?;
    // Nothing but the heading (its characters are all the box's characters), or an `h1` with
    // its date line: a page's hero box ("Acceptable Use Policy", "Effective date: 1 January
    // 2024").
    let alone = sums.visible[heading as usize] == sums.visible[i];
    let h1 = stats.tag_name(heading) == "h1";
    let names = crate::structure::hierarchy::names_a_document(text);
    if (alone && names) || (h1 && dated_title_box(page, stats, c, heading)) {
        return Some(c);
    }
    // A hero box with the document's named `h1` and a tagline ("Datenschutz", "Wie wir mit
    // Ihren Daten umgehen"): the `h1` alone is the title.
    (h1 && names).then_some(heading)
}

/// Whether `boxed` holds text outside `heading`, all of it date lines ("Last updated …"). A
/// box holding a lone `h1` that names no document is a theme's page title as often as the
/// document's ("Rücksendungen" over a "Rücktrittsrecht"); with its date line it opens the
/// document.
fn dated_title_box(page: &str, stats: &StyleStats, boxed: ElementId, heading: ElementId) -> bool {
    let (Some(own), Some(outer)) = (
        stats.elements.get(heading as usize),
        stats.elements.get(boxed as usize),
    ) else {
        return false;
    };
    if outer.all_chars > 0 {
        return false;
    }
    let own = own.range.clone();
    // A date line may hold elements of its own ("Last updated: <time>March 1, 2024</time>"):
    // every text outside the heading lies in an element that reads as a date line.
    let dates: Vec<std::ops::Range<usize>> = descendants(stats, boxed)
        .filter(|(j, e)| {
            !own.contains(&e.range.start)
                && title_line(page, stats, *j as ElementId) == Some(TitleLine::Date)
        })
        .map(|(_, e)| e.range.clone())
        .collect();
    let mut lines = descendants(stats, boxed)
        .filter(|(_, e)| e.all_chars > 0 && !own.contains(&e.range.start))
        .peekable();
    lines.peek().is_some() && lines.all(|(_, e)| dates.iter().any(|d| d.contains(&e.range.start)))
}

/// The text of an `h1`–`h3` element as pass 1 kept it.
fn heading_text(stats: &StyleStats, heading: ElementId) -> Option<&str> {
    stats
        .heading_texts
        .iter()
        .find(|(id, _)| *id == heading)
        .map(|(_, t)| t.as_str())
}

/// The title of a title box that also holds a menu: its first `h1`–`h6` element, else the
/// first line of text when it comes before any link and is short (an eyebrow such as
/// "TERMS OF SERVICE" beside a language menu).
pub(super) fn title_in(stats: &StyleStats, sums: &StyleSums, id: ElementId) -> Option<ElementId> {
    if sums.heading[id as usize] {
        return descendants(stats, id)
            .find(|(i, e)| !e.in_link && is_heading_tag(stats.tag_name(*i as ElementId)))
            .map(|(i, _)| i as ElementId);
    }
    let (i, first) = descendants(stats, id).find(|(_, e)| e.all_chars > 0)?;
    let leaf_text = sums.visible[i] == u64::from(first.all_chars);
    (!first.in_link && leaf_text && first.all_chars <= TITLE_LINE_MAX_CHARS)
        .then_some(i as ElementId)
}

/// Longest title line taken from a title box without a heading element.
pub(super) const TITLE_LINE_MAX_CHARS: u32 = 80;

/// Longest source of an element read for a title line, in bytes.
const TITLE_SOURCE_MAX_BYTES: usize = 2_000;
/// Most words of a title line.
const TITLE_MAX_WORDS: usize = 8;

/// Words that open a date or version line ("Last updated: 1 May 2024", "Stand: 01.05.2024",
/// "Fassung vom 1. Mai 2024", "Date d'entrée en vigueur : 1er mai 2024"), folded. A line
/// counts only when it is short and holds a digit.
const DATE_LINE_OPENINGS: &[&str] = &[
    "last updated",
    "last modified",
    "last revised",
    "last changed",
    "date of last revision",
    "effective",
    "updated",
    "revised",
    "version",
    "dated",
    "stand",
    "zuletzt aktualisiert",
    "zuletzt geandert",
    "letzte aktualisierung",
    "letzte anderung",
    "aktualisiert am",
    "fassung vom",
    "gultig ab",
    "gultig seit",
    "in kraft seit",
    "derniere mise a jour",
    "date de derniere mise a jour",
    "date de mise a jour",
    "mise a jour",
    "mis a jour",
    "en vigueur",
    "date d entree en vigueur",
    "ultima actualizacion",
    "ultimo aggiornamento",
];

/// What kind of title line an element is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TitleLine {
    /// "Last updated …", "Stand: …".
    Date,
    /// A short line that names a legal document ("Privacy Policy").
    DocumentName,
}

/// Whether element `id` is a title without a heading tag — a short line that names a legal
/// document ("Privacy Policy" in a `div.section_title`) — or a date line ("Last updated …",
/// "Stand: …").
fn is_title_line(page: &str, stats: &StyleStats, id: ElementId) -> bool {
    title_line(page, stats, id).is_some()
}

/// The kind of title line element `id` is, if any. Read from the page source of the element
/// (short elements only).
fn title_line(page: &str, stats: &StyleStats, id: ElementId) -> Option<TitleLine> {
    let range = stats.elements[id as usize].range.clone();
    if range.len() > TITLE_SOURCE_MAX_BYTES {
        return None;
    }
    let text = visible_text(page.get(range)?);
    let words = text.split_whitespace().count();
    if words == 0 || words > TITLE_MAX_WORDS * 2 {
        return None;
    }
    let folded = crate::classify::fold(&text);
    if DATE_LINE_OPENINGS
        .iter()
        .any(|w| folded.starts_with(w) && folded.chars().any(|c| c.is_ascii_digit()))
    {
        return Some(TitleLine::Date);
    }
    let names = words <= TITLE_MAX_WORDS && crate::classify::is_a_document_name(&text);
    names.then_some(TitleLine::DocumentName)
}

/// Whether a lead-in element is (or holds as its first heading) the document's own title: an
/// `h1`, a heading that names a legal document, or a title line that does. Above that title
/// stands the site (its header, a banner, a side column), not the document.
fn is_the_documents_title(page: &str, stats: &StyleStats, sums: &StyleSums, id: ElementId) -> bool {
    let heading = if is_heading_tag(stats.tag_name(id)) {
        Some(id)
    } else {
        title_in(stats, sums, id).filter(|&h| is_heading_tag(stats.tag_name(h)))
    };
    if let Some(h) = heading
        && (stats.tag_name(h) == "h1"
            || heading_text(stats, h).is_some_and(crate::structure::hierarchy::names_a_document))
    {
        return true;
    }
    title_line(page, stats, id) == Some(TitleLine::DocumentName)
}

/// The sibling right before `id` (past empty ones) when it is the document's own title
/// ([`is_the_documents_title`]) and short. Out of an `article` the lead-in takes only this:
/// Drupal's themes set the page title in a block of its own before the node's `<article>`;
/// anything else there (a byline, share buttons) is the site's.
fn title_right_before(
    page: &str,
    stats: &StyleStats,
    children: &Children,
    sums: &StyleSums,
    id: ElementId,
) -> Option<ElementId> {
    let parent = sums.parent_of(id);
    if parent == 0 || sums.text_before(id) {
        return None;
    }
    let siblings = children.of(parent);
    let pos = siblings.iter().position(|&c| c == id)?;
    let before = siblings[..pos]
        .iter()
        .rev()
        .copied()
        .find(|&c| sums.visible[c as usize] > 0)?;
    (u64::from(TITLE_LINE_MAX_CHARS) >= sums.visible[before as usize]
        && is_the_documents_title(page, stats, sums, before))
    .then_some(before)
}

/// Whether the content's first line is the document's own title: a block of its own (not a
/// bold run-in) that is an `h1`, a heading naming a legal document or a title line naming
/// one ("<p><strong>Privacy Policy</strong></p>"). Such a content has nothing of the document
/// before it but a page title or a date line: a promotion's or a pop-up's heading above it
/// is the site's.
fn opens_with_its_title(
    page: &str,
    stats: &StyleStats,
    sums: &StyleSums,
    elements: &[ElementId],
) -> bool {
    let Some(&first) = elements.first() else {
        return false;
    };
    let own = stats
        .elements
        .get(first as usize)
        .map(|e| (first as usize, e));
    let Some((text_at, _)) = own
        .into_iter()
        .chain(descendants(stats, first))
        .find(|(_, e)| e.all_chars > 0)
    else {
        return false;
    };
    // The outermost element holding just this line.
    let mut line = text_at as ElementId;
    while line != first {
        let parent = sums.parent_of(line);
        if sums.visible[parent as usize] != sums.visible[line as usize] {
            break;
        }
        line = parent;
    }
    crate::parse::stack::is_block(stats.tag_name(line))
        && is_the_documents_title(page, stats, sums, line)
}

/// The text of an HTML fragment: tags dropped, entities decoded (naive, for short fragments).
fn visible_text(source: &str) -> String {
    let mut text = String::with_capacity(source.len());
    let mut in_tag = false;
    for c in source.chars() {
        match c {
            '<' => {
                in_tag = true;
                text.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    crate::parse::scan::decode_text(&text).into_owned()
}
