//! Tokenisation in the spirit of SoMaJo: URLs, e-mail addresses, amounts, dates, `§` with
//! its number, and abbreviations stay single tokens; other punctuation is separate.

use std::sync::LazyLock;

use regex::Regex;

use super::sentences::ABBREVIATIONS;

/// One pattern, alternatives in priority order (leftmost-first).
static TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    let pattern = [
        // URLs
        r"(?:https?://|ftp://|www\.)[^\s<>\x22]+",
        // e-mail addresses
        r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+",
        // amounts: currency before or after a number
        r"(?:\b(?:EUR|USD|GBP|CHF)|€|\$|£)\s?\d+(?:[.,]\d+)*(?:,-|,–)?",
        r"\d+(?:[.,]\d+)*(?:,-|,–)?\s?(?:€|\$|£|(?:EUR|USD|GBP|CHF|Euro)\b)",
        // dates: 01.02.2021, 3. 5. 2024, 2024-01-31
        r"\d{4}-\d{2}-\d{2}",
        r"\d{1,2}\.\s?\d{1,2}\.(?:\s?\d{4}|\d{2})?",
        // § and its number: § 312g, §§ 434 ff
        r"§§?\s?\d+[a-z]?",
        // dotted abbreviations of single letters: z. B., i. V. m., e.g., U.S.
        r"\b(?:\p{L}\.\s?){1,3}\p{L}\.",
        // numbers with separators (4.2, 1.000, 3,5) and ordinals get their dot below
        r"\d+(?:[.,]\d+)+",
        // words, also with inner hyphens or apostrophes (Online-Shop, don't)
        r"[\p{L}\p{N}]+(?:[\-'’][\p{L}\p{N}]+)*",
        // ellipsis, then any other single character
        r"\.{3}|…",
        r"\S",
    ]
    .join("|");
    Regex::new(&pattern).expect("valid token pattern")
});

/// Splits one sentence into tokens.
pub fn tokenize(sentence: &str) -> Vec<String> {
    let matches: Vec<(usize, usize)> = TOKEN
        .find_iter(sentence)
        .map(|m| (m.start(), m.end()))
        .collect();
    let mut out: Vec<String> = Vec::with_capacity(matches.len());
    let mut i = 0;
    while i < matches.len() {
        let (s, mut e) = matches[i];
        let mut tok = &sentence[s..e];
        // Trailing punctuation belongs to the sentence, not to the URL or address.
        if tok.starts_with(['h', 'w', 'f']) && tok.contains(['/', '.']) && is_url(tok) {
            let trimmed = tok.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '"', '\'']);
            e = s + trimmed.len();
            tok = trimmed;
            out.push(tok.to_owned());
            push_rest(sentence, e, matches[i].1, &mut out);
            i += 1;
            continue;
        }
        // A word or number followed directly by a dot: keep the dot when it is an
        // abbreviation or an ordinal inside the sentence.
        let next_is_dot = matches
            .get(i + 1)
            .is_some_and(|&(ns, ne)| ns == e && &sentence[ns..ne] == ".");
        if next_is_dot {
            let is_last = i + 2 >= matches.len();
            let lower = tok.to_lowercase();
            let abbreviation = ABBREVIATIONS.contains(&lower.as_str())
                || (tok.chars().count() == 1 && tok.chars().all(char::is_alphabetic));
            let ordinal = !is_last && tok.len() <= 3 && tok.chars().all(|c| c.is_ascii_digit());
            if abbreviation || ordinal {
                out.push(format!("{tok}."));
                i += 2;
                continue;
            }
        }
        out.push(normalise_space(tok));
        i += 1;
    }
    out
}

fn is_url(tok: &str) -> bool {
    tok.starts_with("http://")
        || tok.starts_with("https://")
        || tok.starts_with("ftp://")
        || tok.starts_with("www.")
}

/// Punctuation cut off a URL becomes tokens of its own.
fn push_rest(sentence: &str, from: usize, to: usize, out: &mut Vec<String>) {
    for c in sentence[from..to].chars() {
        out.push(c.to_string());
    }
}

/// Multi-part tokens (`§ 3`, `z. B.`, `EUR 4.95`) keep single spaces.
fn normalise_space(tok: &str) -> String {
    if tok.contains(char::is_whitespace) {
        tok.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        tok.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_tokens() {
        assert_eq!(
            tokenize("Gem. § 312g Abs. 2 Nr. 1 BGB, z. B. am 3. 5. 2024."),
            [
                "Gem.",
                "§ 312g",
                "Abs.",
                "2",
                "Nr.",
                "1",
                "BGB",
                ",",
                "z. B.",
                "am",
                "3. 5. 2024",
                "."
            ]
        );
        assert_eq!(
            tokenize("The fee is EUR 4.95 (see https://example.com/terms)."),
            [
                "The",
                "fee",
                "is",
                "EUR 4.95",
                "(",
                "see",
                "https://example.com/terms",
                ")",
                "."
            ]
        );
        assert_eq!(
            tokenize("Kosten: 1.000,00 € ab 1. Januar, Mail an info@shop.de."),
            [
                "Kosten",
                ":",
                "1.000,00 €",
                "ab",
                "1.",
                "Januar",
                ",",
                "Mail",
                "an",
                "info@shop.de",
                "."
            ]
        );
    }

    #[test]
    fn sentence_final_dot_is_separate() {
        assert_eq!(tokenize("Es gilt 14."), ["Es", "gilt", "14", "."]);
        assert_eq!(tokenize("Siehe e.g. this."), ["Siehe", "e.g.", "this", "."]);
        assert!(tokenize("").is_empty());
    }
}
