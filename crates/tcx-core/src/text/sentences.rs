//! Sentence segmentation of German and English legal text.
//!
//! The base splitter is `sentencex` (rule-based, byte offsets). Its abbreviation lists lack
//! most legal abbreviations (`inkl.`, `zzgl.`, `gem.`, `Ziff.`, `lit.`, `approx.` …), so a
//! project-owned post-merge joins two segments when the first ends with one of
//! [`ABBREVIATIONS`], a single letter (`z. B.`, initials), an ordinal or date number before
//! a month, a digit or a lower-case word, or is a bare enumeration marker (`1.`, `(2)`), and
//! when the second starts lower-case. A split is added where a numbered title runs into its
//! body without punctuation (`1. Geltungsbereich Diese AGB gelten …`).
//!
//! Each call segments one block: block boundaries are always sentence boundaries.

use std::sync::LazyLock;

use regex::Regex;

/// Abbreviations after which a full stop never ends a sentence, without their final dot.
/// Dotted multi-part forms are written without spaces (`z.B`, `i.V.m`). Compared
/// case-insensitively.
pub const ABBREVIATIONS: &[&str] = &[
    // German, the issue's list
    "abs", "nr", "s", "art", "ziff", "lit", "ggf", "gem", "inkl", "zzgl", "bzw", "z.b", "d.h",
    "i.v.m", "u.a", "usw", "ca", "vgl",
    // German, further legal and commercial abbreviations
    "abschn", "anm", "aufl", "bspw", "buchst", "bzgl", "dgl", "evtl", "exkl", "ff", "f", "gegr",
    "ggü", "hrsg", "i.d.r", "i.s.d", "i.s.v", "i.ü", "kap", "max", "min", "mind", "mio", "mrd",
    "mwst", "nrn", "o.ä", "o.g", "rn", "rz", "s.o", "s.u", "sog", "str", "tel", "u.u", "u.v.m",
    "ust", "usf", "v.a", "var", "z.t", "z.zt", "zt", "zul", "hr", "fr", "dr", "prof", "dipl",
    "ing", "gmbh", "abt", "allg", "bzgl", "lfd", "jh", "jhd", "std", "tsd", "vs", "bes", "einschl",
    "entspr", "erg", "urt", "az", "tz", "anh", "bd", // English, the issue's list
    "e.g", "i.e", "inc", "ltd", "no", "approx", "etc", // English, further
    "incl", "excl", "sec", "secs", "para", "paras", "corp", "co", "mr", "mrs", "ms", "st", "cf",
    "nos", "pp", "p", "u.s", "u.k", "e.u", "viz", "resp", "ref", "dept", "est", "fig", "vol",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "a.m",
    "p.m", "ph.d", "llc", "plc", "bros",
];

/// Month names that follow an ordinal day (`1. Januar`, `3. May`), lower case.
const MONTHS: &[&str] = &[
    "januar",
    "jänner",
    "februar",
    "märz",
    "april",
    "mai",
    "juni",
    "juli",
    "august",
    "september",
    "oktober",
    "november",
    "dezember",
    "january",
    "february",
    "march",
    "may",
    "june",
    "july",
    "october",
    "december",
    "jan",
    "feb",
    "mär",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "okt",
    "oct",
    "nov",
    "dez",
    "dec",
];

/// A segment that is only an enumeration marker: `1.`, `1.2.`, `(3)`, `a)`, `IV.`, `§ 4`.
static MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:\(?\d{1,3}(?:\.\d{1,3})*[.)]?|\(?[a-zA-Z][.)]|\(?[IVXivx]{1,5}[.)]|§§?\s*\d+[a-z]?\.?|Art(?:ikel|\.)?\s*\d+\.?)$",
    )
    .expect("valid marker pattern")
});

/// A bracketed enumeration marker opening a block: `(1) `, `a) `, `(iv) `.
static LEADING_BRACKET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:\(\w{1,4}\)|\w{1,4}\))\s+").expect("valid bracket pattern")
});

/// A date line running into the body: `Stand: 1. Februar 2024 Diese Fassung …`.
static RUN_IN_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:Stand|Gültig ab|Gültig seit|Zuletzt aktualisiert|Last updated|Last modified|Effective date|Effective|Updated)\s*:?\s*[^!?]{0,30}?\d{4}\s+\p{Lu}",
    )
    .expect("valid date run-in pattern")
});

/// A numbered title running into its body: marker, 1–6 capitalised title words, then a word
/// that typically opens a sentence.
static RUN_IN_NUMBERED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:§§?\s*\d+[a-z]?\.?|\d{1,3}(?:\.\d{1,3})*\.?|[IVX]{1,5}\.|(?:Art(?:ikel|\.)?|Section|Clause|Ziffer|Abschnitt)\s*\d+(?:\.\d+)*\.?)\s+[\p{Lu}][\p{L}\-/&]*,?\s+(?:(?:und|oder|and|or|of|for|&)\s+)?(?:[\p{Lu}][\p{L}\-/&]*,?\s+(?:(?:und|oder|and|or|of|for|&)\s+)?){0,5}(?:Die|Der|Das|Diese|Dieser|Dieses|Wir|Sie|Alle|Es|Ein|Eine|Jeder|Jede|Soweit|Sofern|Wenn|Mit|The|These|This|We|You|All|Our|Any|If|By|Your|Each|Unless|Where|In|Im|Bei)\s",
    )
    .expect("valid run-in pattern")
});

/// A title without a number running into its body: 1–4 capitalised words, then an article
/// or pronoun that cannot follow them inside a sentence.
static RUN_IN_PLAIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[\p{Lu}][\p{L}\-/&]+\s+){1,4}(?:Diese|Dieser|Dieses|Wir|These|This|We)\s+\p{L}",
    )
    .expect("valid plain run-in pattern")
});

/// Splits one block of `lang` text (`de`, `en`; others fall back to English rules) into
/// sentences, trimmed, none empty.
pub fn split(text: &str, lang: &str) -> Vec<String> {
    split_spans(text, lang)
        .into_iter()
        .map(|(s, e)| text[s..e].to_owned())
        .collect()
}

/// [`split`] as byte ranges into `text`, each trimmed.
pub fn split_spans(text: &str, lang: &str) -> Vec<(usize, usize)> {
    let code = if lang.eq_ignore_ascii_case("de") {
        "de"
    } else {
        "en"
    };
    let mut raw: Vec<(usize, usize)> = Vec::new();
    // Fast path: no sentence-ending mark before the final one, so one sentence.
    let body = text
        .trim_end()
        .trim_end_matches(['.', '!', '?', '…', '"', '\'', ')', '”', '“']);
    if !body.contains(['.', '!', '?', '…']) {
        let (s, e) = trim_span(text, 0, text.len());
        if s >= e {
            return Vec::new();
        }
        return match run_in_split(&text[s..e]) {
            Some(at) => [trim_span(text, s, s + at), trim_span(text, s + at, e)]
                .into_iter()
                .filter(|&(a, b)| a < b)
                .collect(),
            None => vec![(s, e)],
        };
    }
    // sentencex does not split a block that opens with a bracketed marker (`(1) …`): segment
    // what follows the marker; the marker joins its sentence again below.
    let skip = LEADING_BRACKET.find(text).map_or(0, |m| m.end());
    if skip > 0 {
        raw.push(trim_span(text, 0, skip));
    }
    let rest = &text[skip..];
    if !rest.trim().is_empty() {
        for b in sentencex::get_sentence_boundaries(code, rest) {
            if b.end_byte <= rest.len()
                && b.start_byte < b.end_byte
                && rest.is_char_boundary(b.start_byte)
                && rest.is_char_boundary(b.end_byte)
            {
                raw.push(trim_span(text, skip + b.start_byte, skip + b.end_byte));
            }
        }
    }
    raw.retain(|&(s, e)| s < e);
    if raw.is_empty() {
        let (s, e) = trim_span(text, 0, text.len());
        return if s < e { vec![(s, e)] } else { Vec::new() };
    }
    // Make the spans contiguous in coverage: a gap sentencex left out belongs to the next.
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(raw.len());
    for (s, e) in raw {
        match merged.last_mut() {
            Some(last) if must_join(&text[last.0..last.1], &text[s..e]) => last.1 = e,
            _ => merged.push((s, e)),
        }
    }
    let mut out = Vec::with_capacity(merged.len() + 1);
    for (s, e) in merged {
        match run_in_split(&text[s..e]) {
            Some(at) => {
                out.push(trim_span(text, s, s + at));
                out.push(trim_span(text, s + at, e));
            }
            None => out.push((s, e)),
        }
    }
    out.retain(|&(s, e)| s < e);
    out
}

fn trim_span(text: &str, start: usize, end: usize) -> (usize, usize) {
    let slice = &text[start..end];
    let lead = slice.len() - slice.trim_start().len();
    let trail = slice.len() - slice.trim_end().len();
    if lead + trail >= slice.len() {
        return (start, start);
    }
    (start + lead, end - trail)
}

/// Where a title running into its body ends (byte offset of the body), if it does.
fn run_in_split(sentence: &str) -> Option<usize> {
    if let Some(m) = RUN_IN_DATE.find(sentence) {
        let last = sentence[..m.end()]
            .chars()
            .next_back()
            .map_or(0, char::len_utf8);
        return Some(m.end() - last);
    }
    let m = RUN_IN_NUMBERED
        .find(sentence)
        .or_else(|| RUN_IN_PLAIN.find(sentence))?;
    // The match ends after the body's first word (and a space or letter); step back to it.
    let head = &sentence[..m.end()];
    let head = head.trim_end_matches(|c: char| !c.is_whitespace());
    let head = head.trim_end();
    let (at, space) = head.char_indices().rfind(|(_, c)| c.is_whitespace())?;
    let body_start = at + space.len_utf8();
    // The title must not end with punctuation that already separates it.
    let title = sentence[..body_start].trim_end();
    if title.ends_with([':', '.', '!', '?', ';']) || MARKER.is_match(title) {
        return None;
    }
    Some(body_start)
}

/// Whether `next` continues the sentence `prev` (sentencex split too early).
fn must_join(prev: &str, next: &str) -> bool {
    if MARKER.is_match(prev) {
        return true;
    }
    let first = next.chars().next();
    if first.is_some_and(|c| c.is_lowercase()) {
        return true;
    }
    if !super::normalize::ends_sentence(prev) {
        // sentencex also splits before inline list markers (`…, die: (a) …; (b) …`): an
        // enumeration inside a sentence stays in it.
        return true;
    }
    if !prev.ends_with('.') {
        // Ended by ? or !: keep the split unless the next part cannot start a sentence.
        return first.is_some_and(|c| matches!(c, ',' | ';' | ')' | ']'));
    }
    if ends_with_abbreviation(prev) {
        return true;
    }
    // An ordinal or a date part: `am 1.` + `Januar`, `am 3.` + `5. 2024`.
    let last = last_word(prev);
    let digits = last.trim_end_matches('.');
    if !digits.is_empty() && digits.len() <= 2 && digits.chars().all(|c| c.is_ascii_digit()) {
        let next_word: String = next
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_end_matches(['.', ','])
            .to_lowercase();
        if first.is_some_and(|c| c.is_ascii_digit()) || MONTHS.contains(&next_word.as_str()) {
            return true;
        }
    }
    false
}

/// The last whitespace-separated word, without leading brackets or quotes.
fn last_word(s: &str) -> &str {
    let w = s.rsplit(char::is_whitespace).next().unwrap_or("");
    w.trim_start_matches(['(', '[', '"', '„', '“', '‚', '\'', '«', '»'])
}

/// True when `s` ends with a listed abbreviation or a single letter and its dot.
pub fn ends_with_abbreviation(s: &str) -> bool {
    let Some(body) = s.strip_suffix('.') else {
        return false;
    };
    let words: Vec<&str> = body.rsplitn(4, char::is_whitespace).collect();
    // words[0] is the last word (without the final dot), then the ones before it.
    let mut candidate = String::new();
    for (i, w) in words.iter().enumerate() {
        let w = w.trim_start_matches(['(', '[', '"', '„', '“', '‚', '\'', '«', '»', '/']);
        if i > 0 {
            // Earlier parts of a spaced form (`z. B.`) are single letters with a dot.
            if !(w.ends_with('.') && w.chars().count() <= 3) {
                break;
            }
        }
        candidate.insert_str(0, w);
        let lower = candidate.to_lowercase();
        if is_abbreviation(&lower) {
            return true;
        }
        if i == 0 {
            let letters = w.chars().filter(|c| c.is_alphabetic()).count();
            if letters == 1 && w.chars().count() == 1 {
                return true;
            }
            // Dotted forms written together: `z.B`, `U.S`, `i.V.m`.
            if w.contains('.')
                && w.split('.')
                    .all(|p| p.chars().count() == 1 && p.chars().all(char::is_alphabetic))
            {
                return true;
            }
        }
    }
    false
}

fn is_abbreviation(lower: &str) -> bool {
    ABBREVIATIONS.contains(&lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_abbreviations_do_not_split() {
        let s = split(
            "Es gilt § 312g Abs. 2 Nr. 1 BGB i. V. m. Art. 246a EGBGB. Die Ware wird ggf. gem. Ziff. 4 inkl. MwSt. zzgl. Versand geliefert.",
            "de",
        );
        assert_eq!(s.len(), 2, "{s:?}");
    }

    #[test]
    fn dates_and_amounts() {
        let s = split(
            "Der Vertrag gilt ab dem 1. Januar 2024 und kostet 1.000,00 €. Die Zahlung erfolgt am 3. 5. per Überweisung.",
            "de",
        );
        assert_eq!(s.len(), 2, "{s:?}");
        let e = split(
            "The fee is EUR 4.95, e.g. for returns. See www.example.com/terms. Write to info@example.com.",
            "en",
        );
        assert_eq!(e.len(), 3, "{e:?}");
    }

    #[test]
    fn run_in_titles_split() {
        let s = split(
            "1. Geltungsbereich Diese AGB gelten für alle Verträge.",
            "de",
        );
        assert_eq!(
            s,
            ["1. Geltungsbereich", "Diese AGB gelten für alle Verträge."]
        );
        let s = split("(1) Diese AGB gelten für alle Verträge.", "de");
        assert_eq!(s.len(), 1, "{s:?}");
    }

    #[test]
    fn inline_enumerations_stay_in_their_sentence() {
        let s = split(
            "Wir haften nicht für: (a) entgangenen Gewinn; (b) Datenverlust. Das gilt immer.",
            "de",
        );
        assert_eq!(s.len(), 2, "{s:?}");
        let s = split("Stand: 1. Februar 2024 Diese Fassung gilt ab sofort.", "de");
        assert_eq!(
            s,
            ["Stand: 1. Februar 2024", "Diese Fassung gilt ab sofort."]
        );
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_keeps_text(text in "[a-zA-Z0-9äöüß§€ .,;:!?()\u{a0}\u{2003}\n-]{0,120}") {
            for lang in ["de", "en"] {
                let spans = split_spans(&text, lang);
                let mut last = 0;
                for &(s, e) in &spans {
                    proptest::prop_assert!(s >= last && s < e && e <= text.len());
                    last = e;
                }
                for (s, e) in spans {
                    let _ = crate::text::tokens::tokenize(&text[s..e]);
                }
            }
        }
    }

    #[test]
    fn run_in_split_after_a_wide_space() {
        let s = split("1. Geltungsbereich\u{a0}Diese AGB gelten.", "de");
        assert_eq!(s, ["1. Geltungsbereich", "Diese AGB gelten."]);
    }

    #[test]
    fn empty_and_unpunctuated() {
        assert!(split("   ", "de").is_empty());
        assert_eq!(split("Kontakt", "de"), ["Kontakt"]);
    }
}
