//! Enumeration prefixes of blocks: `1.`, `1.2`, `1.2.3)`, `§ 3`, `Art. 3`, `Ziffer 2`, `(1)`,
//! `a)`, `(c)`, `IV.`, `(iii)`, `1°`.
//!
//! Matching is anchored at the start of the block and keeps the decoration (`§`, `()`, `.`,
//! `)`) as part of the pattern, so `§ 1` headings and `(1)` paragraphs are different levels.
//! Whether a prefix really enumerates is decided later from sequences
//! ([`Enumeration::is_successor_of`]).

use std::sync::LazyLock;

use regex::{Captures, Regex};

/// The number system of an enumeration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumberKind {
    /// 1, 2, 3 (possibly multi-level: 1.2.3).
    Arabic,
    /// I, II, III.
    RomanUpper,
    /// i, ii, iii.
    RomanLower,
    /// A, B, C.
    LetterUpper,
    /// a, b, c.
    LetterLower,
}

/// What surrounds the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decoration {
    /// `§ 3`, `§§ 3`.
    Section,
    /// A word before the number: `Art. 3`, `Artikel 3`, `Ziffer 2`, `Section 4`, `Clause 5`.
    Word,
    /// `(1)`, `(a)`.
    Parens,
    /// `1)`, `a)`.
    CloseParen,
    /// `1.`, `a.`, `IV.`.
    Dot,
    /// `1°`, `2º`, `3.º`: a number with the degree sign or the ordinal indicator, as French,
    /// Italian and Spanish legal texts number the items of an article.
    Ordinal,
    /// `1`, `1.2` (no closing mark).
    Plain,
}

/// A detected enumeration prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enumeration {
    /// The prefix as written, e.g. `§ 3`, `1.2`, `(1)`, `a)`.
    pub raw: String,
    /// Number system.
    pub kind: NumberKind,
    /// Surrounding marks.
    pub decoration: Decoration,
    /// Values per level: `1.2.3` → `[1, 2, 3]`, `c)` → `[3]`, `IV.` → `[4]`.
    pub values: Vec<u32>,
    /// A single letter that is also a Roman numeral (`i)`, `v)`, `I.`): the other reading.
    pub alternative: Option<(NumberKind, u32)>,
    /// Byte length of the prefix in the block text (including trailing whitespace).
    pub len: usize,
}

/// The level-defining part of an enumeration: two blocks whose classes are equal are
/// siblings when they enumerate in sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EnumClass {
    /// Number system.
    pub kind: NumberKind,
    /// Surrounding marks; `Dot` and `Plain` are merged for multi-level Arabic numbers
    /// (`1.1` and `1.1.` are the same level).
    pub decoration: Decoration,
    /// Number of levels (`1.2.3` → 3).
    pub depth: usize,
}

static WORD_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    // French numbers its first article "1er" (only the first) or "premier"; Spanish and Italian say
    // "artículo", "articolo", French "chapitre".
    Regex::new(r"^(?:§§?|(?i:art\.|artikel|article|artículo|articulo|articolo|art|ziffer|ziff\.|section|sec\.|clause|abschnitt|kapitel|chapitre|chapter|teil|part))[\s\u{a0}]*(?:(1)er|(\d{1,3}(?:\.\d{1,3})*|[IVXL]{1,7})(?:[a-z]|\.?[°º])?|((?i:premier|première)))\.?").expect("valid regex")
});
static PARENS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\(\s*(\d{1,3}|[ivxl]{1,7}|[IVXL]{1,7}|[a-zA-Z])\s*\)").expect("valid regex")
});
static ARABIC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d{1,3}(?:\.\d{1,3})*)(\.?[°º]|[.)])?").expect("valid regex"));
static ROMAN_OR_LETTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([IVXL]{1,7}|[ivxl]{1,7}|[a-zA-Z])([.)])").expect("valid regex")
});

/// Detects the enumeration prefix at the start of a block's text.
pub fn detect(text: &str) -> Option<Enumeration> {
    let text = text.trim_start();
    // Each pattern is tried only where its first characters allow it: most blocks start
    // with a word that no pattern can match, and the regex searches cost more than this.
    let first = text.chars().next()?;
    if may_start_word_prefix(first)
        && let Some(m) = WORD_PREFIX.captures(text)
    {
        return word_prefix(text, &m);
    }
    if first == '('
        && let Some(m) = PARENS.captures(text)
    {
        return parenthesised(text, &m);
    }
    if first.is_numeric()
        && let Some(m) = ARABIC.captures(text)
    {
        return arabic(text, &m);
    }
    // One to seven ASCII letters, then `.` or `)`.
    let letters = text.bytes().take_while(u8::is_ascii_alphabetic).count();
    if !(1..=7).contains(&letters) || !matches!(text.as_bytes().get(letters), Some(b'.' | b')')) {
        return None;
    }
    if let Some(doubled) = doubled_letter(text) {
        return Some(doubled);
    }
    let m = ROMAN_OR_LETTER.captures(text)?;
    roman_or_letter(text, &m)
}

/// Whether [`WORD_PREFIX`] may match a text starting with `c`: `§` or the first letter of one
/// of its words in any case (with the two non-ASCII letters that case-fold to one of them,
/// the Kelvin sign and the long s).
fn may_start_word_prefix(c: char) -> bool {
    matches!(
        c.to_ascii_lowercase(),
        '§' | 'a' | 'z' | 's' | 'c' | 'k' | 't' | 'p' | '\u{212a}' | '\u{17f}'
    )
}

/// `§ 3`, `Art. 2`, `Ziffer 4`, `Section IV`: a number after a word or sign.
fn word_prefix(text: &str, m: &Captures<'_>) -> Option<Enumeration> {
    let whole = m.get(0)?;
    if follows_ok(text, whole.end(), false) {
        let (kind, values) = match m.get(1).or_else(|| m.get(2)).map(|n| n.as_str()) {
            // "premier", "première": the first.
            None => (NumberKind::Arabic, vec![1]),
            Some(num) if num.starts_with(|c: char| c.is_ascii_digit()) => {
                (NumberKind::Arabic, arabic_values(num)?)
            }
            Some(num) => (NumberKind::RomanUpper, vec![roman_value(num)?]),
        };
        let decoration = if text.starts_with('§') {
            Decoration::Section
        } else {
            Decoration::Word
        };
        return Some(build(text, whole.end(), kind, decoration, values, None));
    }
    None
}

/// `(1)`, `(a)`, `(iv)`.
fn parenthesised(text: &str, m: &Captures<'_>) -> Option<Enumeration> {
    let whole = m.get(0)?;
    let inner = m.get(1)?.as_str();
    if !follows_ok(text, whole.end(), true) {
        return None;
    }
    let (kind, value, alternative) = classify_token(inner)?;
    Some(build(
        text,
        whole.end(),
        kind,
        Decoration::Parens,
        vec![value],
        alternative,
    ))
}

/// `1.`, `1.2`, `3)`, `4`, `5°`.
fn arabic(text: &str, m: &Captures<'_>) -> Option<Enumeration> {
    let whole = m.get(0)?;
    let decoration = match m.get(2).map(|d| d.as_str()) {
        Some(".") => Decoration::Dot,
        Some(")") => Decoration::CloseParen,
        Some(_) => Decoration::Ordinal,
        None => Decoration::Plain,
    };
    // A capital glued to the number starts its text ("1.Geltungsbereich"), but not after a
    // degree sign ("30°C").
    let glued_capital = !matches!(decoration, Decoration::Plain | Decoration::Ordinal);
    if !follows_ok(text, whole.end(), glued_capital) {
        return None;
    }
    let values = arabic_values(m.get(1)?.as_str())?;
    let decoration = if values.len() > 1 && decoration == Decoration::Dot {
        Decoration::Plain
    } else {
        decoration
    };
    Some(build(
        text,
        whole.end(),
        NumberKind::Arabic,
        decoration,
        values,
        None,
    ))
}

/// `IV.`, `b)`, `iii)`; not abbreviations such as `z. B.` or `i. d. R.`.
fn roman_or_letter(text: &str, m: &Captures<'_>) -> Option<Enumeration> {
    let whole = m.get(0)?;
    if !follows_ok(text, whole.end(), false) {
        return None;
    }
    let token = m.get(1)?.as_str();
    let decoration = if m.get(2)?.as_str() == "." {
        Decoration::Dot
    } else {
        Decoration::CloseParen
    };
    // Lower-case Roman numerals with a dot are abbreviations ("i. d. R."), not numbers.
    if decoration == Decoration::Dot
        && token.len() > 1
        && token.chars().all(|c| c.is_ascii_lowercase())
    {
        return None;
    }
    // "z. B.", "i. d. R.", "u. a.": a chain of one-letter abbreviations.
    if decoration == Decoration::Dot
        && token.len() == 1
        && starts_with_abbreviation(&text[whole.end()..])
    {
        return None;
    }
    let (kind, value, alternative) = classify_token(token)?;
    Some(build(
        text,
        whole.end(),
        kind,
        decoration,
        vec![value],
        alternative,
    ))
}

impl Enumeration {
    /// The level-defining class of this enumeration.
    pub fn class(&self) -> EnumClass {
        EnumClass {
            kind: self.kind,
            decoration: self.decoration,
            depth: self.values.len(),
        }
    }

    /// The same prefix read with its alternative number system (`i)` as Roman one instead of
    /// the letter i).
    pub fn with_alternative(&self) -> Option<Enumeration> {
        let (kind, value) = self.alternative?;
        Some(Enumeration {
            kind,
            values: vec![value],
            alternative: Some((self.kind, *self.values.first()?)),
            ..self.clone()
        })
    }

    /// Whether `self` can directly follow `prev` in one enumeration: the same class and the
    /// last level one (or, tolerating a gap, two) higher with equal higher levels, or the
    /// next higher level restarting at 1 (`1.3` → `2.1`).
    pub fn is_successor_of(&self, prev: &Enumeration) -> bool {
        if self.class() != prev.class() {
            return false;
        }
        let n = self.values.len();
        let (a, b) = (&prev.values, &self.values);
        if a[..n - 1] == b[..n - 1] {
            let step = i64::from(b[n - 1]) - i64::from(a[n - 1]);
            return (1..=2).contains(&step);
        }
        // A carry into a higher level: the first differing level steps by one, all levels
        // after it restart at 1.
        let Some(k) = (0..n - 1).find(|&i| a[i] != b[i]) else {
            return false;
        };
        b[..k] == a[..k] && b[k] == a[k] + 1 && b[k + 1..].iter().all(|&v| v == 1)
    }

    /// Whether this is the first item of an enumeration (last level 1).
    pub fn is_first(&self) -> bool {
        self.values.last() == Some(&1)
    }

    /// The block text after the prefix.
    pub fn rest<'a>(&self, text: &'a str) -> &'a str {
        let text = text.trim_start();
        text.get(self.len..).unwrap_or("").trim_start()
    }
}

/// A doubled lower-case letter with a closing parenthesis — `aa)`, `bb)`, `cc)` — the level
/// German legal drafting sets under `a)`, `b)`: letters on a second level, values `[0, n]`
/// (depth 2, so a class of its own, one below the single letters). `ii)` and `xx)` stay Roman
/// numerals.
fn doubled_letter(text: &str) -> Option<Enumeration> {
    let b = text.as_bytes();
    let (&first, &second, &close) = (b.first()?, b.get(1)?, b.get(2)?);
    if first != second
        || !first.is_ascii_lowercase()
        || close != b')'
        || matches!(first, b'i' | b'x')
    {
        return None;
    }
    if !follows_ok(text, 3, false) {
        return None;
    }
    let value = u32::from(first - b'a') + 1;
    Some(build(
        text,
        3,
        NumberKind::LetterLower,
        Decoration::CloseParen,
        vec![0, value],
        None,
    ))
}

fn build(
    text: &str,
    end: usize,
    kind: NumberKind,
    decoration: Decoration,
    values: Vec<u32>,
    alternative: Option<(NumberKind, u32)>,
) -> Enumeration {
    let raw = text[..end].trim_end().to_owned();
    let len = end + (text[end..].len() - text[end..].trim_start().len());
    Enumeration {
        raw,
        kind,
        decoration,
        values,
        alternative,
        len,
    }
}

/// The prefix must end the token: whitespace, end of text, or (for decorated numbers) a
/// capital letter glued to it as in `1.Geltungsbereich`.
fn follows_ok(text: &str, end: usize, decorated: bool) -> bool {
    match text[end..].chars().next() {
        None => true,
        Some(c) if c.is_whitespace() => true,
        Some(c) if decorated && c.is_uppercase() => true,
        Some(':') | Some('–') | Some('-') => {
            text[end..].chars().nth(1).is_none_or(char::is_whitespace)
        }
        _ => false,
    }
}

fn starts_with_abbreviation(rest: &str) -> bool {
    let mut chars = rest.trim_start().chars();
    matches!((chars.next(), chars.next()), (Some(c), Some('.')) if c.is_alphabetic())
}

/// A token's reading: number system, value, and the other reading of an ambiguous letter.
type TokenReading = (NumberKind, u32, Option<(NumberKind, u32)>);

fn classify_token(token: &str) -> Option<TokenReading> {
    if token.chars().all(|c| c.is_ascii_digit()) {
        return Some((NumberKind::Arabic, token.parse().ok()?, None));
    }
    let upper = token.chars().all(|c| c.is_ascii_uppercase());
    if token.len() == 1 {
        let c = token.chars().next()?;
        let letter = (c.to_ascii_lowercase() as u32) - ('a' as u32) + 1;
        let letter_kind = if upper {
            NumberKind::LetterUpper
        } else {
            NumberKind::LetterLower
        };
        let roman_kind = if upper {
            NumberKind::RomanUpper
        } else {
            NumberKind::RomanLower
        };
        return match (roman_value(token), upper) {
            // Upper-case I/V/X/L lean Roman (I. Allgemeines), lower-case lean letter (i) after h)).
            (Some(r), true) => Some((roman_kind, r, Some((letter_kind, letter)))),
            (Some(r), false) => Some((letter_kind, letter, Some((roman_kind, r)))),
            (None, _) => Some((letter_kind, letter, None)),
        };
    }
    let value = roman_value(token)?;
    let kind = if upper {
        NumberKind::RomanUpper
    } else {
        NumberKind::RomanLower
    };
    Some((kind, value, None))
}

fn arabic_values(s: &str) -> Option<Vec<u32>> {
    s.split('.').map(|p| p.parse().ok()).collect()
}

/// Value of a canonical Roman numeral made of I, V, X, L (1 to 89); `None` for anything
/// else (`IIII`, `VX`, `IL` are not numerals).
pub fn roman_value(s: &str) -> Option<u32> {
    let upper = s.to_ascii_uppercase();
    let mut rest = upper.as_str();
    let mut value = 0;
    for (sym, val) in [
        ("L", 50),
        ("XL", 40),
        ("X", 10),
        ("IX", 9),
        ("V", 5),
        ("IV", 4),
        ("I", 1),
    ] {
        let max = if matches!(sym, "X" | "I") { 3 } else { 1 };
        let mut n = 0;
        while n < max && rest.starts_with(sym) {
            value += val;
            rest = &rest[sym.len()..];
            n += 1;
        }
    }
    (rest.is_empty() && value > 0).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`detect`] trying every pattern, without the first-character guards.
    fn detect_unguarded(text: &str) -> Option<Enumeration> {
        let text = text.trim_start();
        if let Some(m) = WORD_PREFIX.captures(text) {
            return word_prefix(text, &m);
        }
        if let Some(m) = PARENS.captures(text) {
            return parenthesised(text, &m);
        }
        if let Some(m) = ARABIC.captures(text) {
            return arabic(text, &m);
        }
        let m = ROMAN_OR_LETTER.captures(text)?;
        roman_or_letter(text, &m)
    }

    proptest::proptest! {
        #[test]
        fn the_guards_change_no_detection(
            text in "[ \u{a0}]{0,2}(§|§§|\\(|[0-9٣]|[ivxlIVXLabcAZ]{1,8}|Art|art\\.|Ziffer|Section|Kapitel|Teil|Part|Clause|\u{212a}apitel|\u{17f}ection|Über|Widerruf)[ .)0-9a-zA-Z\u{a0}]{0,8}"
        ) {
            proptest::prop_assert_eq!(
                detect(&text).map(|e| format!("{e:?}")),
                detect_unguarded(&text).map(|e| format!("{e:?}"))
            );
        }
    }

    fn d(s: &str) -> Option<(String, NumberKind, Decoration, Vec<u32>)> {
        detect(s).map(|e| (e.raw, e.kind, e.decoration, e.values))
    }

    use Decoration::*;
    use NumberKind::*;

    #[test]
    fn arabic_numbers() {
        assert_eq!(
            d("1. Lorem Ipsum"),
            Some(("1.".into(), Arabic, Dot, vec![1]))
        );
        assert_eq!(
            d("1.2 In enim"),
            Some(("1.2".into(), Arabic, Plain, vec![1, 2]))
        );
        assert_eq!(
            d("1.1. Geltung"),
            Some(("1.1.".into(), Arabic, Plain, vec![1, 1]))
        );
        assert_eq!(
            d("10) x"),
            Some(("10)".into(), Arabic, CloseParen, vec![10]))
        );
        assert_eq!(
            d("1 Geltungsbereich"),
            Some(("1".into(), Arabic, Plain, vec![1]))
        );
        assert_eq!(
            d("1.Geltungsbereich"),
            Some(("1.".into(), Arabic, Dot, vec![1]))
        );
        assert_eq!(
            d("2.3.1) Text"),
            Some(("2.3.1)".into(), Arabic, CloseParen, vec![2, 3, 1]))
        );
    }

    #[test]
    fn not_enumerations() {
        for s in [
            "12.03.2021 Stand",
            "1.000,00 € Mindestbestellwert",
            "2024 wurde",
            "z.B. so",
            "Stand: 01/2021",
            "This is a contract",
            "I agree",
            "ill will",
            "i. d. R. gilt",
            "Gemäß § 3",
            "1.) Test",
            "z. B. so",
            "u. a. die",
            "",
        ] {
            assert_eq!(d(s), None, "{s}");
        }
    }

    #[test]
    fn section_signs_and_words() {
        assert_eq!(
            d("§ 3 Widerruf"),
            Some(("§ 3".into(), Arabic, Section, vec![3]))
        );
        assert_eq!(
            d("§3 Widerruf"),
            Some(("§3".into(), Arabic, Section, vec![3]))
        );
        assert_eq!(
            d("§ 312g BGB"),
            Some(("§ 312g".into(), Arabic, Section, vec![312]))
        );
        assert_eq!(
            d("§§ 3 Gewähr"),
            Some(("§§ 3".into(), Arabic, Section, vec![3]))
        );
        assert_eq!(
            d("§ 4. Preise"),
            Some(("§ 4.".into(), Arabic, Section, vec![4]))
        );
        assert_eq!(
            d("Art. 3 Haftung"),
            Some(("Art. 3".into(), Arabic, Word, vec![3]))
        );
        assert_eq!(
            d("Ziffer 2 Preise"),
            Some(("Ziffer 2".into(), Arabic, Word, vec![2]))
        );
        assert_eq!(
            d("Section 4.2 Fees"),
            Some(("Section 4.2".into(), Arabic, Word, vec![4, 2]))
        );
        assert_eq!(
            d("Artikel IV Schluss"),
            Some(("Artikel IV".into(), RomanUpper, Word, vec![4]))
        );
        // French first articles, Spanish and French words.
        assert_eq!(
            d("Article 1er – Objet"),
            Some(("Article 1er".into(), Arabic, Word, vec![1]))
        );
        assert_eq!(
            d("ARTICLE PREMIER : Objet"),
            Some(("ARTICLE PREMIER".into(), Arabic, Word, vec![1]))
        );
        assert_eq!(
            d("Artículo 3. Precios"),
            Some(("Artículo 3.".into(), Arabic, Word, vec![3]))
        );
        assert_eq!(
            d("Chapitre II Données"),
            Some(("Chapitre II".into(), RomanUpper, Word, vec![2]))
        );
        // Spanish and Italian ordinal indicators after the article's number.
        assert_eq!(
            d("Artículo 2º. Precios"),
            Some(("Artículo 2º.".into(), Arabic, Word, vec![2]))
        );
        assert_eq!(
            d("Articolo 3.º Recesso"),
            Some(("Articolo 3.º".into(), Arabic, Word, vec![3]))
        );
        // A word that only starts like the number is no number; "er" follows only a 1.
        assert_eq!(d("Article premiers pas"), None);
        assert_eq!(d("Abschnitt 2er Regel"), None);
        assert_eq!(d("Teil Ver"), None);
    }

    #[test]
    fn ordinal_signs_number_items() {
        // French items of an article ("1° …"), Spanish and Italian ones ("2º", "3.º").
        assert_eq!(
            d("1° Sélection des produits"),
            Some(("1°".into(), Arabic, Ordinal, vec![1]))
        );
        assert_eq!(
            d("2º El cliente"),
            Some(("2º".into(), Arabic, Ordinal, vec![2]))
        );
        assert_eq!(
            d("3.º Il cliente"),
            Some(("3.º".into(), Arabic, Ordinal, vec![3]))
        );
        // Not glued to a word, and not a bare degree sign.
        assert_eq!(d("30°C bis 40°C"), None);
        assert_eq!(d("° Celsius"), None);
    }

    #[test]
    fn parens_letters_and_romans() {
        assert_eq!(
            d("(1) Der Vertrag"),
            Some(("(1)".into(), Arabic, Parens, vec![1]))
        );
        assert_eq!(
            d("(a) text"),
            Some(("(a)".into(), LetterLower, Parens, vec![1]))
        );
        assert_eq!(
            d("a) foo"),
            Some(("a)".into(), LetterLower, CloseParen, vec![1]))
        );
        assert_eq!(
            d("A. General"),
            Some(("A.".into(), LetterUpper, Dot, vec![1]))
        );
        assert_eq!(
            d("h) x"),
            Some(("h)".into(), LetterLower, CloseParen, vec![8]))
        );
        assert_eq!(
            d("IV. Haftung"),
            Some(("IV.".into(), RomanUpper, Dot, vec![4]))
        );
        assert_eq!(
            d("XIV. foo"),
            Some(("XIV.".into(), RomanUpper, Dot, vec![14]))
        );
        assert_eq!(
            d("(iii) third"),
            Some(("(iii)".into(), RomanLower, Parens, vec![3]))
        );
        let i = detect("i) x").unwrap();
        assert_eq!((i.kind, i.values.clone()), (LetterLower, vec![9]));
        assert_eq!(i.with_alternative().unwrap().values, vec![1]);
        let one = detect("I. Allgemeines").unwrap();
        assert_eq!((one.kind, one.values.clone()), (RomanUpper, vec![1]));
        assert_eq!(d("IIII. x"), None);
    }

    #[test]
    fn unicode_spaces_never_break_detection() {
        assert_eq!(
            d("§\u{a0}3 Widerruf"),
            Some(("§\u{a0}3".into(), Arabic, Section, vec![3]))
        );
        assert_eq!(
            d("a)\u{2009}thin"),
            Some(("a)".into(), LetterLower, CloseParen, vec![1]))
        );
        assert_eq!(d("\u{2003}1.\u{2009}Foo").map(|x| x.3), Some(vec![1]));
    }

    #[test]
    fn successors() {
        let e = |s: &str| detect(s).unwrap();
        assert!(e("2. b").is_successor_of(&e("1. a")));
        assert!(e("3. b").is_successor_of(&e("1. a")));
        assert!(!e("4. b").is_successor_of(&e("1. a")));
        assert!(e("1.2 b").is_successor_of(&e("1.1 a")));
        assert!(e("2.1 b").is_successor_of(&e("1.9 a")));
        assert!(!e("2.2 b").is_successor_of(&e("1.9 a")));
        assert!(!e("(2) b").is_successor_of(&e("1. a")));
        assert!(e("b) x").is_successor_of(&e("a) x")));
        assert!(e("II. x").is_successor_of(&e("I. x")));
        assert!(e("§ 2 x").is_successor_of(&e("§ 1 x")));
        assert!(!e("§ 2 x").is_successor_of(&e("2. x")));
    }

    #[test]
    fn rest_after_prefix() {
        let e = detect("§ 3   Widerruf").unwrap();
        assert_eq!(e.rest("§ 3   Widerruf"), "Widerruf");
    }

    #[test]
    fn roman_values() {
        assert_eq!(roman_value("XX"), Some(20));
        assert_eq!(roman_value("xix"), Some(19));
        assert_eq!(roman_value("XLIV"), Some(44));
        assert_eq!(roman_value("VX"), None);
        assert_eq!(roman_value("IL"), None);
    }
}
