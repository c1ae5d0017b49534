//! Clauses: the numbered paragraphs inside a section (`(1)`, `a)`, `1.`, `(ii)`) as a tree a
//! reader can address — `["§ 2", "(3)", "b)"]`, `["4.", "(b)", "(ii)"]` — without changing
//! what the section's `paragraphs` hold.
//!
//! Rules, per section, over its own paragraphs in order:
//! - a paragraph opens a clause when it starts with a number in parentheses, with a closing
//!   parenthesis or with a dot (`(3)`, `b)`, `1.`), with a doubled letter (`aa)`, `bb)`: a
//!   level of its own below the letters; `ii)` and `xx)` read as Roman numerals, so a ninth
//!   doubled letter is not one), or with a multi-level decimal number
//!   (`1.2`, `1.2.3.`: its depth is its level, and it continues only a number with the same
//!   values before the last); numbers after a word or sign (`§ 3`, `Art. 2`) are section
//!   titles or citations, and bare numbers (`14 Tage …`) are text;
//! - a number continues an open sequence when it is the next value of that level (one-letter
//!   Roman/letter ambiguity resolved by whichever reading continues: `(i)` after `(h)` is a
//!   letter, `(i)` under `(b)` starts Roman numerals); it then closes every deeper clause;
//! - a number that continues no open level starts a new level under the innermost open clause
//!   only when it is a first value (`1`, `a`, `i`); otherwise the paragraph is plain text;
//! - an unnumbered paragraph after a nested list (`a) … b) …` then text) belongs to the
//!   outermost open clause: nested levels close, the clause continues.
//!
//! A clause spans its own paragraph, its nested clauses and its continuation paragraphs
//! (`start..end` into the section's `paragraphs`). Its address is the numbers of the enclosing
//! numbered sections, then of the enclosing clauses, then its own.

use super::enumeration::{self, Decoration, NumberKind};
use crate::model::{Clause, Section};

/// The level of a clause number: number system, decoration and depth (`1.2` has depth 2).
type Level = (NumberKind, Decoration, usize);

/// A clause number read from the start of a paragraph, with its other reading.
struct Marker {
    raw: String,
    readings: Vec<(Level, u32)>,
    /// The values before the last of a multi-level number (`[1]` for `1.2`): a `1.3` continues
    /// a `1.2` only, not a `2.2`.
    stem: Vec<u32>,
}

/// Adds the clause trees to every section of the tree (iteratively: lists nest deeply).
pub fn add_clauses(sections: &mut [Section]) {
    let mut todo: Vec<(&mut Section, Vec<String>)> =
        sections.iter_mut().map(|s| (s, Vec::new())).collect();
    while let Some((section, mut prefix)) = todo.pop() {
        if let Some(n) = &section.number {
            prefix.push(n.clone());
        }
        section.clauses = clauses_of(&section.paragraphs, &prefix);
        for child in section.subsections.iter_mut() {
            todo.push((child, prefix.clone()));
        }
    }
}

/// Whether a paragraph opens a clause: it starts with a clause number (`(3)`, `b)`, `1.`,
/// `1.2`).
pub(crate) fn opens_clause(paragraph: &str) -> bool {
    marker(paragraph).is_some()
}

fn marker(paragraph: &str) -> Option<Marker> {
    let e = enumeration::detect(paragraph)?;
    let (&last, stem) = e.values.split_last()?;
    // `aa)`, `bb)`: letters on a second level (stem `[0]`), nested like single letters.
    let doubled = stem == [0] && e.kind == NumberKind::LetterLower;
    let single = (stem.is_empty() || doubled)
        && matches!(
            e.decoration,
            Decoration::Parens | Decoration::CloseParen | Decoration::Dot | Decoration::Ordinal
        );
    // Multi-level decimal numbers (`1.1`, `2.3.1`, with or without a final dot): the clauses
    // of a numbered section in most German AGB and many English terms.
    let decimal = !stem.is_empty()
        && e.kind == NumberKind::Arabic
        && matches!(e.decoration, Decoration::Plain | Decoration::Dot);
    if !single && !decimal {
        return None;
    }
    // `1.1` and `1.1.` are one level.
    let decoration = if decimal {
        Decoration::Plain
    } else {
        e.decoration
    };
    let depth = e.values.len();
    let mut readings = vec![((e.kind, decoration, depth), last)];
    if let Some((kind, value)) = e.alternative {
        readings.push(((kind, decoration, depth), value));
    }
    Some(Marker {
        raw: e.raw.trim().to_owned(),
        readings,
        stem: stem.to_vec(),
    })
}

/// An open clause while the paragraphs are read: its level, value, address and place in the
/// tree (the path of child indices from the section's top-level clauses).
struct Open {
    level: Level,
    value: u32,
    stem: Vec<u32>,
    address: Vec<String>,
    path: Vec<usize>,
}

/// The clause tree of one section's paragraphs; `prefix` is the enclosing sections' numbers.
fn clauses_of(paragraphs: &[String], prefix: &[String]) -> Vec<Clause> {
    let mut top: Vec<Clause> = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    for (i, p) in paragraphs.iter().enumerate() {
        let m = marker(p);
        let placed = m.as_ref().and_then(|m| place(m, &open).map(|at| (m, at)));
        match placed {
            Some((m, (level, value, depth))) => {
                open.truncate(depth);
                let (mut address, mut path) = match open.last() {
                    Some(o) => (o.address.clone(), o.path.clone()),
                    None => (prefix.to_vec(), Vec::new()),
                };
                address.push(m.raw.clone());
                let siblings = children_at(&mut top, &path);
                siblings.push(Clause::new(m.raw.clone(), address.clone(), i));
                path.push(siblings.len() - 1);
                open.push(Open {
                    level,
                    value,
                    stem: m.stem.clone(),
                    address,
                    path,
                });
            }
            None => {
                // Text: after a nested list it continues the outermost open clause.
                open.truncate(1);
            }
        }
        // Every open clause spans this paragraph.
        for o in &open {
            clause_at(&mut top, &o.path).end = i + 1;
        }
    }
    top
}

/// Where a marker goes: the level and value it takes and how many open clauses stay open
/// above it; `None` when it continues no level and starts none (plain text).
fn place(m: &Marker, open: &[Open]) -> Option<(Level, u32, usize)> {
    // Continue an open level, innermost first.
    for depth in (0..open.len()).rev() {
        for &(level, value) in &m.readings {
            if open[depth].level == level
                && open[depth].value + 1 == value
                && open[depth].stem == m.stem
            {
                return Some((level, value, depth));
            }
        }
    }
    // Start a new level under the innermost open clause (or at the top) with a first value.
    let &(level, value) = m.readings.iter().find(|(_, v)| *v == 1)?;
    // A level already open higher up is not restarted inside itself.
    if open.iter().any(|o| o.level == level) {
        return None;
    }
    Some((level, value, open.len()))
}

/// The children list at `path` (the top-level list for an empty path).
fn children_at<'a>(top: &'a mut Vec<Clause>, path: &[usize]) -> &'a mut Vec<Clause> {
    let mut list = top;
    for &i in path {
        list = &mut list[i].clauses;
    }
    list
}

fn clause_at<'a>(top: &'a mut [Clause], path: &[usize]) -> &'a mut Clause {
    let (first, rest) = path.split_first().expect("an open clause has a path");
    let mut c = &mut top[*first];
    for &i in rest {
        c = &mut c.clauses[i];
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paras(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| (*s).to_owned()).collect()
    }

    fn outline(c: &[Clause]) -> String {
        c.iter()
            .map(|c| {
                let mut s = format!("{}[{}..{}]", c.number, c.start, c.end);
                if !c.clauses.is_empty() {
                    s.push_str(&format!(" {{{}}}", outline(&c.clauses)));
                }
                s
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    #[test]
    fn nesting_continuation_and_text() {
        let p = paras(&[
            "Vorweg ein Satz.",
            "(1) Eins.",
            "(2) Zwei:",
            "a) erstens;",
            "b) zweitens.",
            "Danach gilt Absatz 2 weiter.",
            "(3) Drei.",
            "14 Tage Frist sind kein Absatz.",
        ]);
        let c = clauses_of(&p, &["§ 2".into()]);
        assert_eq!(
            outline(&c),
            "(1)[1..2], (2)[2..6] {a)[3..4], b)[4..5]}, (3)[6..8]"
        );
        assert_eq!(c[1].clauses[1].address, ["§ 2", "(2)", "b)"]);
    }

    #[test]
    fn roman_and_letter_readings() {
        // (i) under (b) starts Roman numerals; (i) after (h) continues the letters.
        let p = paras(&["(a) A.", "(b) B:", "(i) one;", "(ii) two;", "(c) C."]);
        let c = clauses_of(&p, &["4.".into()]);
        assert_eq!(
            outline(&c),
            "(a)[0..1], (b)[1..4] {(i)[2..3], (ii)[3..4]}, (c)[4..5]"
        );
        assert_eq!(c[1].clauses[1].address, ["4.", "(b)", "(ii)"]);
        let letters: Vec<String> = "abcdefghi".chars().map(|l| format!("({l}) x.")).collect();
        let c = clauses_of(&letters, &[]);
        assert_eq!(c.len(), 9);
        assert!(c.iter().all(|c| c.clauses.is_empty()));
    }

    #[test]
    fn decimal_numbers_are_clauses_nested_by_depth() {
        let p = paras(&[
            "1.1 Diese AGB gelten für alle Verträge.",
            "1.2 Verbraucher ist jede natürliche Person:",
            "1.2.1 erstens;",
            "1.2.2 zweitens.",
            "1.3. Abweichende Bedingungen gelten nicht.",
            "2.2 continues nothing: its stem is another section's.",
        ]);
        let c = clauses_of(&p, &["1.".into()]);
        assert_eq!(
            outline(&c),
            "1.1[0..1], 1.2[1..4] {1.2.1[2..3], 1.2.2[3..4]}, 1.3.[4..6]"
        );
        assert_eq!(c[1].clauses[1].address, ["1.", "1.2", "1.2.2"]);
    }

    #[test]
    fn numbers_that_start_nothing_are_text() {
        // A paragraph starting "3." without a "1." and "2." before it, and a citation.
        let c = clauses_of(
            &paras(&["3. Juli 2024 ist der Stichtag.", "§ 312g BGB gilt."]),
            &[],
        );
        assert!(c.is_empty());
    }
}
