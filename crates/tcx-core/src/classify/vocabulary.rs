//! The names legal documents go by, per [`DocumentType`], in German, English, French, Spanish,
//! Italian and Dutch: what a footer link, a page title, a heading or an address slug says.
//!
//! Matching works on a folded label (lower case, letters and digits only, umlauts also
//! spelled out) and a phrase matches at the start of a word, so German compounds match by
//! their first part ("datenschutz" matches "Datenschutzerklärung", "versand" matches
//! "Versandkosten"). The longest matching phrase decides, so "Versandbedingungen" is shipping,
//! not terms, and "Cookie-Richtlinie" is cookies. Words that name no document on their own
//! ("Bedingungen", "Policy", "Legal") are not in the lists, except as a weak `other` hint.

use super::DocumentType;
use DocumentType::*;
use std::sync::LazyLock;

/// `(phrase, type)`: folded phrases (see [`fold`]), matched at a word start.
const PHRASES: &[(&str, DocumentType)] = &[
    // Terms: the shop's contract terms.
    ("agb", Terms),
    ("allgemeine geschaftsbedingungen", Terms),
    ("allgemeine geschaeftsbedingungen", Terms),
    ("geschaftsbedingungen", Terms),
    ("geschaeftsbedingungen", Terms),
    ("nutzungsbedingungen", Terms),
    ("vertragsbedingungen", Terms),
    ("verkaufsbedingungen", Terms),
    // "Allgemeine … bedingungen" are AGB by definition (§ 305 BGB), also as a truncated
    // compound: "Allgemeine Verkaufs- und Lieferbedingungen", "Allgemeine Liefer- und
    // Zahlungsbedingungen" (B2B shops' AVB/ALB).
    // Whole or truncated forms only ("Allgemeine Lieferzeiten" is a shipping page); "… liefer
    // und" outranks "zahlungsbedingungen" under the longest match.
    ("allgemeine verkaufs und", Terms),
    ("allgemeine einkaufsbedingungen", Terms),
    ("allgemeine lieferbedingungen", Terms),
    ("allgemeine liefer und", Terms),
    ("lieferbedingungen", ShippingPayment),
    ("kundeninformationen", Terms),
    ("terms", Terms),
    ("terms and conditions", Terms),
    ("terms conditions", Terms),
    ("terms of service", Terms),
    ("terms of use", Terms),
    ("terms of sale", Terms),
    ("conditions of sale", Terms),
    ("conditions of use", Terms),
    ("general conditions", Terms),
    ("user agreement", Terms),
    ("tos", Terms),
    ("gtc", Terms),
    ("t c", Terms),
    ("t cs", Terms),
    ("cgv", Terms),
    ("cgu", Terms),
    ("conditions generales", Terms),
    ("conditions d utilisation", Terms),
    ("terminos", Terms),
    ("condiciones", Terms),
    ("termini e condizioni", Terms),
    ("condizioni generali", Terms),
    ("condizioni di vendita", Terms),
    ("algemene voorwaarden", Terms),
    ("voorwaarden", Terms),
    // Withdrawal: the consumer's right to withdraw, returns and refunds.
    ("widerruf", Withdrawal),
    ("widerrufsbelehrung", Withdrawal),
    ("widerrufsrecht", Withdrawal),
    ("muster widerrufsformular", Withdrawal),
    ("ruckgabe", Withdrawal),
    ("rueckgabe", Withdrawal),
    ("rucksendung", Withdrawal),
    ("ruecksendung", Withdrawal),
    ("retoure", Withdrawal),
    ("umtausch", Withdrawal),
    ("return", Withdrawal),
    ("returns", Withdrawal),
    ("refund", Withdrawal),
    ("right of withdrawal", Withdrawal),
    ("withdrawal", Withdrawal),
    ("cancellation policy", Withdrawal),
    ("retractation", Withdrawal),
    ("droit de retractation", Withdrawal),
    ("retours", Withdrawal),
    ("retour", Withdrawal),
    ("politique de retour", Withdrawal),
    ("remboursement", Withdrawal),
    ("desistimiento", Withdrawal),
    ("devoluciones", Withdrawal),
    ("reembolso", Withdrawal),
    ("recesso", Withdrawal),
    ("diritto di recesso", Withdrawal),
    ("resi", Withdrawal),
    ("rimborso", Withdrawal),
    ("herroeping", Withdrawal),
    ("herroepingsrecht", Withdrawal),
    ("retourneren", Withdrawal),
    // Privacy.
    ("datenschutz", Privacy),
    ("datenschutzerklarung", Privacy),
    ("datenschutzerklaerung", Privacy),
    ("datenschutzhinweise", Privacy),
    ("privacy", Privacy),
    ("privacy policy", Privacy),
    ("privacy notice", Privacy),
    ("privacy statement", Privacy),
    ("data protection", Privacy),
    ("data privacy", Privacy),
    ("gdpr", Privacy),
    ("dsgvo", Privacy),
    ("confidentialite", Privacy),
    ("politique de confidentialite", Privacy),
    ("donnees personnelles", Privacy),
    ("protection des donnees", Privacy),
    ("privacidad", Privacy),
    ("politica de privacidad", Privacy),
    ("proteccion de datos", Privacy),
    ("informativa sulla privacy", Privacy),
    ("privacybeleid", Privacy),
    ("privacyverklaring", Privacy),
    // Imprint.
    ("impressum", Imprint),
    ("imprint", Imprint),
    ("legal notice", Imprint),
    ("legal notices", Imprint),
    ("legal disclosure", Imprint),
    ("site notice", Imprint),
    ("anbieterkennzeichnung", Imprint),
    ("mentions legales", Imprint),
    ("informations legales", Imprint),
    ("aviso legal", Imprint),
    ("note legali", Imprint),
    ("colofon", Imprint),
    // Shipping and payment.
    ("versand", ShippingPayment),
    ("versandkosten", ShippingPayment),
    ("versandarten", ShippingPayment),
    ("versandinformationen", ShippingPayment),
    ("lieferung", ShippingPayment),
    ("lieferzeiten", ShippingPayment),
    ("zahlung", ShippingPayment),
    ("zahlungsarten", ShippingPayment),
    ("zahlungsbedingungen", ShippingPayment),
    ("zahlungsmoglichkeiten", ShippingPayment),
    ("shipping", ShippingPayment),
    ("delivery", ShippingPayment),
    ("payment", ShippingPayment),
    ("payment methods", ShippingPayment),
    ("livraison", ShippingPayment),
    ("expedition", ShippingPayment),
    ("frais de port", ShippingPayment),
    ("paiement", ShippingPayment),
    ("envio", ShippingPayment),
    ("envios", ShippingPayment),
    ("formas de pago", ShippingPayment),
    ("spedizione", ShippingPayment),
    ("spedizioni", ShippingPayment),
    ("pagamento", ShippingPayment),
    ("verzending", ShippingPayment),
    ("betaling", ShippingPayment),
    // Cookies and trackers.
    ("cookie", Cookies),
    ("cookies", Cookies),
    ("cookie policy", Cookies),
    ("cookie richtlinie", Cookies),
    ("cookie richtlinien", Cookies),
    ("cookierichtlinie", Cookies),
    ("trackers", Cookies),
    ("politique de cookies", Cookies),
    ("politica de cookies", Cookies),
    // Other legal texts (weak: a hub or a policy of another kind).
    ("acceptable use", Other),
    ("community guidelines", Other),
    ("copyright", Other),
    ("dmca", Other),
    ("disclaimer", Other),
    ("haftungsausschluss", Other),
    ("rechtliche hinweise", Other),
    ("rechtliches", Other),
    ("legal", Other),
    ("policies", Other),
    ("richtlinien", Other),
    ("barrierefreiheit", Other),
    ("accessibility", Other),
];

/// A label's type and the folded phrase that decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelMatch {
    /// The type the phrase names.
    pub kind: DocumentType,
    /// The phrase as listed (folded).
    pub phrase: &'static str,
}

/// Lower case, letters and digits only (everything else a single space), umlauts and `ß`
/// spelled out as their base letter (`ä` → `a`, so both "Geschäfts…" and the folded
/// "Geschaefts…" spellings are listed), other accents dropped.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    fold_into(text, &mut out);
    out
}

/// [`fold`] into a reused buffer (cleared first).
pub(crate) fn fold_into(text: &str, out: &mut String) {
    let mut buf = std::mem::take(out).into_bytes();
    fold_bytes_into(text, &mut buf);
    *out = String::from_utf8(buf).unwrap_or_default();
}

/// [`fold`] into a reused byte buffer (cleared first): UTF-8, for callers that only search
/// it as bytes and need not check it again.
pub(crate) fn fold_bytes_into(text: &str, buf: &mut Vec<u8>) {
    buf.clear();
    fold_bytes_with(text, false, buf);
}

/// Where [`fold_bytes_with`] puts the folded text, a byte at a time: a buffer, or a search
/// that reads the folded text as it is made (no buffer written and read again).
pub(crate) trait FoldedBytes {
    /// Takes the next byte of the folded text.
    fn push_byte(&mut self, byte: u8);
}

impl FoldedBytes for Vec<u8> {
    #[inline(always)]
    fn push_byte(&mut self, byte: u8) {
        self.push(byte);
    }
}

/// Feeds [`fold`]`(text)` to `out`; with `space_first`, with a space before the first word
/// too (so that every word follows a space). Only ASCII bytes and whole encoded characters
/// are fed, so the bytes are UTF-8.
pub(crate) fn fold_bytes_with(text: &str, space_first: bool, out: &mut impl FoldedBytes) {
    // Bytes, not chars: most text is ASCII, and one table look-up per ASCII byte folds it.
    // A separator is owed, not written, until a letter follows: no space repeats, none ends
    // the text.
    let mut owed = Spacing {
        owed: space_first,
        started: space_first,
    };
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            // Letters and digits lower-cased; other ASCII separates words. (The hottest
            // loop: bytes fed directly, not through `Folded`.)
            match ASCII_FOLD[usize::from(b)] {
                0 => owed.separate(),
                f => {
                    owed.pay(out);
                    out.push_byte(f);
                }
            }
            i += 1;
            continue;
        }
        // Latin-1 letters (two bytes, C2 or C3 first) from a table; other characters
        // one at a time.
        if (b == 0xC2 || b == 0xC3)
            && let Some(&next) = bytes.get(i + 1)
        {
            let code = (usize::from(b & 0x1F) << 6) | usize::from(next & 0x3F);
            LATIN1_FOLD[code - 0x80].feed(out, &mut owed);
            i += 2;
            continue;
        }
        let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) else {
            break;
        };
        i += c.len_utf8();
        for c in c.to_lowercase() {
            fold_char(c).feed(out, &mut owed);
        }
    }
}

/// The separator state of [`fold_bytes_with`].
struct Spacing {
    /// A space is owed before the next letter.
    owed: bool,
    /// A letter was fed (or the text starts with a space).
    started: bool,
}

impl Spacing {
    #[inline(always)]
    fn separate(&mut self) {
        self.owed = self.started;
    }

    /// Feeds the owed space before a letter.
    #[inline(always)]
    fn pay(&mut self, out: &mut impl FoldedBytes) {
        if self.owed {
            out.push_byte(b' ');
            self.owed = false;
        }
        self.started = true;
    }
}

/// What one lower-case character folds to.
#[derive(Clone, Copy)]
enum Folded {
    /// Nothing: it joins what it splits (soft hyphen, zero-width characters).
    Joins,
    /// A word separator.
    Separates,
    /// This letter or digit.
    Char(char),
    /// These letters (`ß` → `ss`).
    Letters(&'static str),
}

impl Folded {
    /// Feeds the folded character to `out`.
    fn feed(self, out: &mut impl FoldedBytes, spacing: &mut Spacing) {
        match self {
            Folded::Joins => {}
            Folded::Separates => spacing.separate(),
            Folded::Char(c) => {
                spacing.pay(out);
                for &b in c.encode_utf8(&mut [0; 4]).as_bytes() {
                    out.push_byte(b);
                }
            }
            Folded::Letters(t) => {
                spacing.pay(out);
                for &b in t.as_bytes() {
                    out.push_byte(b);
                }
            }
        }
    }
}

/// How a lower-case character folds: umlauts and `ß` spelled out as their base letters,
/// other accents of Latin letters dropped, any other letter or digit kept.
fn fold_char(c: char) -> Folded {
    let base = match c {
        '\u{ad}' | '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}' => {
            return Folded::Joins;
        }
        'ä' | 'à' | 'á' | 'â' | 'ã' | 'å' => 'a',
        'ö' | 'ò' | 'ó' | 'ô' | 'õ' => 'o',
        'ü' | 'ù' | 'ú' | 'û' => 'u',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'í' | 'ì' | 'î' | 'ï' => 'i',
        'ç' => 'c',
        'ñ' => 'n',
        'ß' => return Folded::Letters("ss"),
        c => c,
    };
    if crate::structure::blocks::is_alphanumeric(base) {
        Folded::Char(base)
    } else {
        Folded::Separates
    }
}

/// [`fold_into`]'s table of U+0080 to U+00FF (most of the non-ASCII letters of German and
/// French text): each character lower-cased and folded by [`fold_char`].
static LATIN1_FOLD: LazyLock<Vec<Folded>> = LazyLock::new(|| {
    (0x80u32..0x100)
        .filter_map(char::from_u32)
        // Each of these characters lower-cases to one character.
        .map(|c| fold_char(c.to_lowercase().next().unwrap_or(c)))
        .collect()
});

/// [`fold_into`]'s ASCII table: a letter or digit folds to itself in lower case, any other
/// ASCII byte to 0 (a word separator).
static ASCII_FOLD: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            t[b] = c.to_ascii_lowercase();
        }
        b += 1;
    }
    t
};

/// The type a short label names (a link text, a page title, a heading, an address slug
/// turned into words), by the longest phrase of the vocabulary that starts a word of it.
/// `None` when no phrase matches.
///
/// ```
/// use tcx_core::{DocumentType, type_of_label};
/// assert_eq!(type_of_label("Allgemeine Geschäftsbedingungen"), Some(DocumentType::Terms));
/// assert_eq!(type_of_label("Versand & Zahlung"), Some(DocumentType::ShippingPayment));
/// assert_eq!(type_of_label("Datenschutzerklärung"), Some(DocumentType::Privacy));
/// assert_eq!(type_of_label("Allgemeine Verkaufs- und Lieferbedingungen"), Some(DocumentType::Terms));
/// assert_eq!(type_of_label("Neuheiten"), None);
/// ```
pub fn type_of_label(label: &str) -> Option<DocumentType> {
    match_label(label).map(|m| m.kind)
}

/// Like [`type_of_label`], with the phrase that decided.
pub fn match_label(label: &str) -> Option<LabelMatch> {
    let folded = fold(label);
    longest_named(&folded, &phrases_named_in(&folded))
}

/// The phrases of [`PHRASES`] that match a [`fold`]ed label — start a word, and a short one
/// also end it — in list order: the only ones any run of its words can name (see
/// [`longest_named`]).
pub(crate) fn phrases_named_in(folded: &str) -> Vec<(&'static str, DocumentType)> {
    // One pass of an automaton over the label instead of one search per phrase.
    let bytes = folded.as_bytes();
    let mut named: Vec<usize> = PHRASE_INDEX
        .find_overlapping_iter(folded)
        .filter(|m| matches_at(bytes, m.start(), PHRASES[m.pattern().as_usize()].0))
        .map(|m| m.pattern().as_usize())
        .collect();
    named.sort_unstable();
    named.dedup();
    named.into_iter().map(|i| PHRASES[i]).collect()
}

/// [`PHRASES`] in one automaton (pattern `i` is phrase `i`).
static PHRASE_INDEX: LazyLock<aho_corasick::AhoCorasick> = LazyLock::new(|| {
    aho_corasick::AhoCorasick::builder()
        .kind(Some(aho_corasick::AhoCorasickKind::DFA))
        .build(PHRASES.iter().map(|p| p.0))
        .expect("the phrase list is small")
});

/// [`match_label`] of a [`fold`]ed label among `phrases` (in list order: the first of the
/// longest wins). Passing [`phrases_named_in`] a longer label that holds this one gives the
/// same answer as all [`PHRASES`]: a phrase matching in a run of words matches the same
/// words in the whole label.
pub(crate) fn longest_named(
    folded: &str,
    phrases: &[(&'static str, DocumentType)],
) -> Option<LabelMatch> {
    let mut best: Option<LabelMatch> = None;
    for &(phrase, kind) in phrases {
        let longer = best.is_none_or(|b| phrase.len() > b.phrase.len());
        if longer && starts_a_word(folded, phrase) {
            best = Some(LabelMatch { kind, phrase });
        }
    }
    best
}

/// The share (0 to 1) of a label's letters that phrases of `kind` cover (a phrase covers the
/// whole word it starts, so German compounds count whole): 1.0 for "AGB",
/// "Datenschutzbestimmungen" or "Rückgabe & Umtausch", about 0.35 for the product name
/// "Cookie Cutter Set". A link text
/// names a document only when most of it is the document's name.
///
/// ```
/// use tcx_core::{DocumentType, label_coverage};
/// assert_eq!(label_coverage("Rückgabe & Umtausch", DocumentType::Withdrawal), 1.0);
/// assert_eq!(label_coverage("Datenschutzbestimmungen", DocumentType::Privacy), 1.0);
/// assert!(label_coverage("Cookie Cutter Set", DocumentType::Cookies) < 0.5);
/// ```
pub fn label_coverage(label: &str, kind: DocumentType) -> f64 {
    let folded = fold(label);
    let bytes = folded.as_bytes();
    let mut covered = vec![false; bytes.len()];
    for &(phrase, phrase_kind) in PHRASES {
        if phrase_kind != kind {
            continue;
        }
        for (i, _) in folded.match_indices(phrase) {
            if matches_at(bytes, i, phrase) {
                // A stem covers its whole word: "Datenschutzbestimmungen" is all a name.
                let end = bytes[i..]
                    .iter()
                    .position(|b| *b == b' ')
                    .map_or(bytes.len(), |n| i + n)
                    .max(i + phrase.len());
                covered[i..end].iter_mut().for_each(|c| *c = true);
            }
        }
    }
    let letters = bytes.iter().filter(|b| **b != b' ').count();
    if letters == 0 {
        return 0.0;
    }
    let hit = bytes
        .iter()
        .zip(&covered)
        .filter(|(b, c)| **b != b' ' && **c)
        .count();
    hit as f64 / letters as f64
}

/// The type an address names by its path (and query) words: `/de/agb/`, `/policies/
/// refund-policy`, `/datenschutzerklaerung.html`. Host and file extension are ignored.
///
/// ```
/// use tcx_core::{DocumentType, type_of_url};
/// assert_eq!(type_of_url("https://shop.de/info/widerrufsrecht.html"), Some(DocumentType::Withdrawal));
/// assert_eq!(type_of_url("https://shop.example/policies/privacy-policy"), Some(DocumentType::Privacy));
/// assert_eq!(type_of_url("https://shop.example/products/terms-hat"), Some(DocumentType::Terms));
/// assert_eq!(type_of_url("https://agb.example/"), None);
/// ```
pub fn type_of_url(url: &str) -> Option<DocumentType> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = rest.find('/').map_or("", |i| &rest[i..]);
    let path = path.split('#').next().unwrap_or("");
    let words: String = path
        .split(['/', '?', '&', '='])
        .map(|segment| {
            segment
                .trim_end_matches(".html")
                .trim_end_matches(".htm")
                .trim_end_matches(".php")
                .trim_end_matches(".aspx")
        })
        .collect::<Vec<_>>()
        .join(" ");
    type_of_label(&words)
}

/// Whether `phrase` occurs in `folded` at the start of a word. Phrases shorter than six
/// letters ("agb", "tos", "terms", "legal") must also end a word: as prefixes they would match
/// unrelated words ("tossed", "legally", "residence").
fn starts_a_word(folded: &str, phrase: &str) -> bool {
    let bytes = folded.as_bytes();
    // Only word starts can match: test each (no substring search set up per phrase).
    let mut i = 0;
    loop {
        if bytes[i..].starts_with(phrase.as_bytes()) && matches_at(bytes, i, phrase) {
            return true;
        }
        match bytes[i..].iter().position(|&b| b == b' ') {
            Some(k) => i += k + 1,
            None => return false,
        }
    }
}

/// Whether the occurrence of `phrase` at byte `i` starts a word (and, when short, ends one).
fn matches_at(bytes: &[u8], i: usize, phrase: &str) -> bool {
    let starts = i == 0 || bytes[i - 1] == b' ';
    let end = i + phrase.len();
    starts && (phrase.len() >= 6 || end == bytes.len() || bytes[end] == b' ')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_automaton_names_the_phrases_a_search_per_phrase_finds() {
        for label in [
            "AGB & Widerrufsbelehrung",
            "Terms of Use and Privacy Policy",
            "Datenschutzerklärung der Firma",
            "Versandbedingungen",
            "Cookie-Richtlinie (EU)",
            "Conditions générales de vente",
            "Impressum / Legal Notice",
            "agbs and more agb",
            "Neuheiten",
            "",
        ] {
            let folded = fold(label);
            let one_by_one: Vec<_> = PHRASES
                .iter()
                .copied()
                .filter(|&(phrase, _)| starts_a_word(&folded, phrase))
                .collect();
            assert_eq!(phrases_named_in(&folded), one_by_one, "{label}");
        }
    }

    /// Folding one character at a time, as [`fold`] is specified: the byte-table version
    /// must give the same text.
    fn fold_by_chars(text: &str) -> String {
        let mut out = String::new();
        let mut space = true;
        for c in text.chars().flat_map(char::to_lowercase) {
            let base = match c {
                '\u{ad}' | '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}' => {
                    continue;
                }
                'ä' | 'à' | 'á' | 'â' | 'ã' | 'å' => "a",
                'ö' | 'ò' | 'ó' | 'ô' | 'õ' => "o",
                'ü' | 'ù' | 'ú' | 'û' => "u",
                'é' | 'è' | 'ê' | 'ë' => "e",
                'í' | 'ì' | 'î' | 'ï' => "i",
                'ç' => "c",
                'ñ' => "n",
                'ß' => "ss",
                c if c.is_alphanumeric() => {
                    out.push(c);
                    space = false;
                    continue;
                }
                _ => {
                    if !space {
                        out.push(' ');
                        space = true;
                    }
                    continue;
                }
            };
            out.push_str(base);
            space = false;
        }
        if out.ends_with(' ') {
            out.pop();
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn folding_bytes_is_folding_characters(
            text in "([a-zA-Z0-9 .,;:!?()§&/-]|[äöüÄÖÜßéèçñÉÀİ]|\u{ad}|\u{200b}|[αβΓЖж]|[\u{80}-\u{2000}]){0,60}"
        ) {
            proptest::prop_assert_eq!(fold(&text), fold_by_chars(&text));
        }
    }

    #[test]
    fn folding_spells_out_umlauts_and_drops_punctuation() {
        assert_eq!(
            fold("  Zahlungs- & Versand-Bedingungen!"),
            "zahlungs versand bedingungen"
        );
        assert_eq!(fold("Geschäftsbedingungen"), "geschaftsbedingungen");
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(fold("Daten\u{ad}schutz"), "datenschutz");
        assert_eq!(fold("Mentions légales"), "mentions legales");
    }

    #[test]
    fn labels_in_several_languages() {
        for (label, kind) in [
            ("AGB", Terms),
            ("AGB und Kundeninformationen", Terms),
            ("Terms & Conditions", Terms),
            ("Terms of Service", Terms),
            ("Conditions générales de vente", Terms),
            ("Algemene voorwaarden", Terms),
            ("Widerrufsbelehrung", Withdrawal),
            ("Rückgabe & Umtausch", Withdrawal),
            ("Refund policy", Withdrawal),
            ("Droit de rétractation", Withdrawal),
            ("Politique de retour", Withdrawal),
            ("Livraison et expédition", ShippingPayment),
            ("Frais de port", ShippingPayment),
            ("Informations légales", Imprint),
            ("Datenschutzerklärung", Privacy),
            ("Privacy Policy", Privacy),
            ("Politique de confidentialité", Privacy),
            ("Política de privacidad", Privacy),
            ("Impressum", Imprint),
            ("Legal Notice", Imprint),
            ("Mentions légales", Imprint),
            ("Versandkosten", ShippingPayment),
            ("Zahlung und Versand", ShippingPayment),
            ("Liefer- und Versandbedingungen", ShippingPayment),
            ("Shipping policy", ShippingPayment),
            ("Cookie-Richtlinie", Cookies),
            ("Cookie Policy", Cookies),
            ("Legal", Other),
        ] {
            assert_eq!(type_of_label(label), Some(kind), "{label}");
        }
        for label in [
            "Startseite",
            "Neu im Shop",
            "Contact us",
            "Warenkorb",
            "Protest",
            "Stories",
        ] {
            assert_eq!(type_of_label(label), None, "{label}");
        }
    }

    #[test]
    fn addresses_by_their_path_words() {
        for (url, kind) in [
            ("https://bildblatt.de/refund_returns/", Withdrawal),
            ("https://bildblatt.de/versandarten/", ShippingPayment),
            ("/zahlung-versand", ShippingPayment),
            ("https://x.de/de/agb/", Terms),
            ("https://x.de/content/3-datenschutz?id_lang=1", Privacy),
            ("https://x.com/legal/privacy-policy", Privacy),
            ("https://x.com/pages/imprint.html", Imprint),
        ] {
            assert_eq!(type_of_url(url), Some(kind), "{url}");
        }
        assert_eq!(type_of_url("https://agb-shop.de/"), None);
        assert_eq!(type_of_url("https://x.de/warenkorb"), None);
    }
}
