//! Language of the main content: detected among every language whatlang knows and reported
//! as found, with its confidence. The allow-list (`[language] allowed`) decides only which
//! rules the text is *processed* with ([`processing_language`]): a French page is reported
//! as `fr` and split into sentences with the English rules when `fr` is not allowed.

use whatlang::{Detector, Lang};

use crate::model::Language;

/// Characters of text the detector reads: enough for a stable answer (about 150 words; on
/// the 883 corpus pages no language differs from a 2,500-character sample), and the
/// detector's cost grows with the sample.
const SAMPLE_CHARS: usize = 1_000;

/// ISO 639-1 codes of every language the detector knows.
const CODES: &[(&str, Lang)] = &[
    ("de", Lang::Deu),
    ("en", Lang::Eng),
    ("fr", Lang::Fra),
    ("es", Lang::Spa),
    ("it", Lang::Ita),
    ("nl", Lang::Nld),
    ("pt", Lang::Por),
    ("pl", Lang::Pol),
    ("da", Lang::Dan),
    ("sv", Lang::Swe),
    ("nb", Lang::Nob),
    ("fi", Lang::Fin),
    ("cs", Lang::Ces),
    ("sk", Lang::Slk),
    ("hu", Lang::Hun),
    ("ro", Lang::Ron),
    ("ru", Lang::Rus),
    ("tr", Lang::Tur),
    ("el", Lang::Ell),
    ("bg", Lang::Bul),
    ("hr", Lang::Hrv),
    ("sl", Lang::Slv),
    ("et", Lang::Est),
    ("lv", Lang::Lav),
    ("lt", Lang::Lit),
    ("uk", Lang::Ukr),
    ("ja", Lang::Jpn),
    ("zh", Lang::Cmn),
    ("eo", Lang::Epo),
    ("bn", Lang::Ben),
    ("ka", Lang::Kat),
    ("ar", Lang::Ara),
    ("hi", Lang::Hin),
    ("he", Lang::Heb),
    ("yi", Lang::Yid),
    ("am", Lang::Amh),
    ("jv", Lang::Jav),
    ("ko", Lang::Kor),
    ("be", Lang::Bel),
    ("mr", Lang::Mar),
    ("kn", Lang::Kan),
    ("sr", Lang::Srp),
    ("mk", Lang::Mkd),
    ("ta", Lang::Tam),
    ("vi", Lang::Vie),
    ("ur", Lang::Urd),
    ("th", Lang::Tha),
    ("gu", Lang::Guj),
    ("uz", Lang::Uzb),
    ("pa", Lang::Pan),
    ("az", Lang::Aze),
    ("id", Lang::Ind),
    ("te", Lang::Tel),
    ("fa", Lang::Pes),
    ("ml", Lang::Mal),
    ("or", Lang::Ori),
    ("my", Lang::Mya),
    ("ne", Lang::Nep),
    ("si", Lang::Sin),
    ("km", Lang::Khm),
    ("tk", Lang::Tuk),
    ("ak", Lang::Aka),
    ("zu", Lang::Zul),
    ("sn", Lang::Sna),
    ("af", Lang::Afr),
    ("la", Lang::Lat),
    ("ca", Lang::Cat),
    ("tl", Lang::Tgl),
    ("hy", Lang::Hye),
    ("cy", Lang::Cym),
];

/// The whatlang language of an ISO 639-1 code.
/// Whether `code` is an ISO 639-1 code the language detector knows.
pub fn is_known_language(code: &str) -> bool {
    lang_from_code(code).is_some()
}

/// The detector's language for an ISO 639-1 code.
pub fn lang_from_code(code: &str) -> Option<Lang> {
    CODES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code))
        .map(|(_, l)| *l)
}

fn code_of(lang: Lang) -> Option<&'static str> {
    CODES.iter().find(|(_, l)| *l == lang).map(|(c, _)| *c)
}

#[cfg(test)]
/// Detects the language of `text` (see [`detect_info`]). `None` for text too short or
/// ambiguous to tell.
pub fn detect(text: &str, allowed: &[String]) -> Option<Language> {
    detect_info(text, allowed).map(|(l, _)| l)
}

/// [`detect`], also telling whether the answer is reliable. Trigram statistics alone answer
/// confidently wrong on some English pages (Portuguese, Italian, Indonesian), so a language
/// outside `allowed` is reported only when the text does not read like an allowed language
/// by its function words ([`FunctionWords::reads_like`]); otherwise the detector answers
/// among `allowed`. Prose that is plainly German or English by its function words
/// ([`FunctionWords::is_plainly`]) is answered without the detector, reliably and with
/// confidence 1.0 (the detector's own answer on such text).
pub fn detect_info(text: &str, allowed: &[String]) -> Option<(Language, bool)> {
    let sample: String = text.chars().take(SAMPLE_CHARS).collect();
    let allow: Vec<Lang> = allowed.iter().filter_map(|c| lang_from_code(c)).collect();
    let words = FunctionWords::count(&sample);
    // Prose that is plainly German or plainly English by its function words needs no trigram
    // statistics: the detector's answer among the allowed languages would be the same, with
    // full confidence (so on every corpus page), at a twentieth of the cost.
    if let Some(code) = allowed.iter().find(|code| words.is_plainly(code)) {
        // `is_plainly` holds only for the canonical codes "de" and "en".
        let language = Language {
            code: code.clone(),
            confidence: 1.0,
        };
        return Some((language, true));
    }
    let familiar = allowed.iter().any(|code| words.reads_like(code));
    let info = if familiar || allow.is_empty() {
        Detector::with_allowlist(allow.clone()).detect(&sample)
    } else {
        match Detector::new().detect(&sample) {
            Some(open) if open.is_reliable() || !allow.contains(&open.lang()) => Some(open),
            _ => Detector::with_allowlist(allow.clone()).detect(&sample),
        }
    }
    .or_else(|| Detector::new().detect(&sample))?;
    let language = Language {
        code: code_of(info.lang())?.to_owned(),
        confidence: (info.confidence() * 1000.0).round() / 1000.0,
    };
    Some((language, info.is_reliable()))
}

/// Common German function words, most frequent first (the first [`CORE_FUNCTION_WORDS`]
/// serve the quick per-section guess in `text`).
pub(crate) const GERMAN_FUNCTION_WORDS: &[&str] = &[
    "der", "die", "das", "und", "ist", "nicht", "mit", "sie", "den", "zu", "von", "für", "auf",
    "wir", "eine", "oder", "des", "im", "dem", "ein", "bei", "werden", "wird", "sind",
];
/// Common English function words, most frequent first (see [`GERMAN_FUNCTION_WORDS`]).
pub(crate) const ENGLISH_FUNCTION_WORDS: &[&str] = &[
    "the", "and", "of", "to", "is", "you", "with", "for", "we", "that", "this", "or", "are", "any",
    "be", "our", "in", "a", "it", "on", "by", "your", "not", "will",
];
/// How many of the function words the per-section guess uses.
pub(crate) const CORE_FUNCTION_WORDS: usize = 16;

/// The words of a text and how many of them are German and English function words, counted
/// in one pass.
struct FunctionWords {
    total: usize,
    german: usize,
    english: usize,
}

impl FunctionWords {
    fn count(text: &str) -> FunctionWords {
        let mut counts = FunctionWords {
            total: 0,
            german: 0,
            english: 0,
        };
        // Words as written between spaces, punctuation trimmed; "1a" or "3." are not words.
        for w in text
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .filter(|w| !w.is_empty() && !w.chars().any(|c| c.is_ascii_digit()))
        {
            counts.total += 1;
            // Function words are short; ASCII ones compare without a lower-case copy.
            if w.len() > 6 {
                continue;
            }
            let lower = (!w.is_ascii()).then(|| w.to_lowercase());
            let is = |words: &[&str]| match &lower {
                None => words.iter().any(|f| f.eq_ignore_ascii_case(w)),
                Some(l) => words.contains(&l.as_str()),
            };
            counts.german += usize::from(is(GERMAN_FUNCTION_WORDS));
            counts.english += usize::from(is(ENGLISH_FUNCTION_WORDS));
        }
        counts
    }

    /// Whether the text is plainly in `code` (German or English): at least
    /// [`PLAIN_MIN_WORDS`] words, reading like it ([`Self::reads_like`]), and its function
    /// words outnumbering the other language's [`PLAIN_RATIO`] times.
    fn is_plainly(&self, code: &str) -> bool {
        let (hits, other) = match code {
            "de" => (self.german, self.english),
            "en" => (self.english, self.german),
            _ => return false,
        };
        self.total >= PLAIN_MIN_WORDS && self.reads_like(code) && hits >= PLAIN_RATIO * other
    }

    /// Whether at least [`FUNCTION_WORD_SHARE`] of the words are common function words of
    /// `code` (German and English only; `false` for other languages).
    fn reads_like(&self, code: &str) -> bool {
        let hits = match code {
            "de" => self.german,
            "en" => self.english,
            _ => return false,
        };
        self.total >= 20 && hits as f64 >= FUNCTION_WORD_SHARE * self.total as f64
    }
}

/// Fewest words for [`FunctionWords::is_plainly`]: shorter texts go to the detector.
const PLAIN_MIN_WORDS: usize = 40;
/// A text is plainly German (English) when it reads like it and its German (English)
/// function words outnumber the other language's at least this many times (German prose
/// holds English "in", "a", "on"; English prose hardly any German ones).
const PLAIN_RATIO: usize = 4;

/// Share of function words from which a text reads like German or English (prose in either
/// language has 20–35 %; French or Spanish prose under 3 % of the other's).
const FUNCTION_WORD_SHARE: f64 = 0.08;

/// The language whose rules (sentences, tokens) the text is processed with: the reported
/// language when it is allowed; else the hint when it is allowed; else English when allowed
/// (the closest rules for most other languages); else the first allowed language.
pub fn processing_language<'a>(
    reported: Option<&str>,
    allowed: &'a [String],
    hint: Option<&str>,
) -> Option<&'a str> {
    let find = |code: &str| {
        allowed
            .iter()
            .find(|a| a.eq_ignore_ascii_case(code))
            .map(String::as_str)
    };
    reported
        .and_then(find)
        .or_else(|| hint.map(str::trim).and_then(find))
        .or_else(|| find("en"))
        .or_else(|| allowed.first().map(String::as_str))
}

/// [`detect`] with a hint (a job's `lang_hint`, ISO 639-1): the hint wins when the
/// detector has no answer or an unreliable one. A hint outside `allowed` is ignored.
/// When the hint wins, the confidence is the detector's confidence in the hinted language's
/// favour, i.e. what it had left (`1 - confidence` of its own pick, 0 without a pick).
pub fn detect_with_hint(text: &str, allowed: &[String], hint: Option<&str>) -> Option<Language> {
    let hint = hint
        .map(str::trim)
        .filter(|h| allowed.iter().any(|a| a.eq_ignore_ascii_case(h)))
        .and_then(|h| code_of(lang_from_code(h)?));
    match (detect_info(text, allowed), hint) {
        (Some((l, true)), _) => Some(l),
        (Some((l, false)), Some(h)) if l.code != h => Some(Language {
            code: h.to_owned(),
            confidence: ((1.0 - l.confidence) * 1000.0).round() / 1000.0,
        }),
        (Some((l, _)), _) => Some(l),
        (None, Some(h)) => Some(Language {
            code: h.to_owned(),
            confidence: 0.0,
        }),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn langs() -> Vec<String> {
        vec!["de".into(), "en".into()]
    }

    #[test]
    fn german_and_english() {
        let de = detect("Diese Allgemeinen Geschäftsbedingungen gelten für alle Verträge, die über unseren Online-Shop geschlossen werden.", &langs()).unwrap();
        assert_eq!(de.code, "de");
        let en = detect(
            "These terms and conditions apply to all contracts concluded through our online shop.",
            &langs(),
        )
        .unwrap();
        assert_eq!(en.code, "en");
        assert!(detect("", &langs()).is_none());
    }

    #[test]
    fn other_languages_are_reported_as_found() {
        let fr = detect("Les présentes conditions générales de vente s'appliquent à toutes les commandes passées sur notre boutique en ligne par des consommateurs.", &langs()).unwrap();
        assert_eq!(fr.code, "fr");
        let es = detect("Estas condiciones generales de venta se aplican a todos los pedidos realizados en nuestra tienda en línea por los consumidores.", &langs()).unwrap();
        assert_eq!(es.code, "es");
        let ru = detect("Самые популярные кулинарные блоги и фуд-блогеры России, которые стоит читать каждый день.", &langs()).unwrap();
        assert_eq!(ru.code, "ru");
        // English prose stays English even where trigrams lean elsewhere.
        let english = "Click here to read the full story and share it with your friends. \
            It is the best of the year and we think you will like it, so do not miss it on our site.";
        assert_eq!(detect(english, &langs()).unwrap().code, "en");
    }

    #[test]
    fn processing_language_is_an_allowed_one() {
        let allowed = langs();
        assert_eq!(processing_language(Some("de"), &allowed, None), Some("de"));
        assert_eq!(processing_language(Some("fr"), &allowed, None), Some("en"));
        assert_eq!(
            processing_language(Some("fr"), &allowed, Some("de")),
            Some("de")
        );
        assert_eq!(processing_language(None, &allowed, None), Some("en"));
        let german_only = vec!["de".to_owned()];
        assert_eq!(
            processing_language(Some("fr"), &german_only, None),
            Some("de")
        );
    }

    #[test]
    fn hint_wins_only_when_unsure() {
        let sure = "Diese Allgemeinen Geschäftsbedingungen gelten für alle Verträge, die über unseren Online-Shop geschlossen werden.";
        assert_eq!(
            detect_with_hint(sure, &langs(), Some("en")).unwrap().code,
            "de"
        );
        assert_eq!(
            detect_with_hint("Impressum", &langs(), Some("de"))
                .unwrap()
                .code,
            "de"
        );
        assert_eq!(
            detect_with_hint("", &langs(), Some("en")).unwrap().code,
            "en"
        );
        assert!(detect_with_hint("", &langs(), Some("fr")).is_none());
        assert!(detect_with_hint("", &langs(), None).is_none());
    }

    #[test]
    fn codes_round_trip() {
        for (code, lang) in CODES {
            assert_eq!(lang_from_code(code), Some(*lang));
            assert_eq!(code_of(*lang), Some(*code));
        }
        assert!(lang_from_code("xx").is_none());
    }

    #[test]
    fn plain_german_and_english_skip_the_detector_with_its_answer() {
        let de = "Diese Allgemeinen Geschäftsbedingungen gelten für alle Verträge, die zwischen uns und \
            dem Kunden über den Online-Shop geschlossen werden. Der Vertrag kommt mit der Annahme \
            der Bestellung zustande, die wir per E-Mail bestätigen. Die Ware bleibt bis zur \
            vollständigen Bezahlung unser Eigentum, und in allen Fällen gilt das Recht der \
            Bundesrepublik Deutschland.";
        let en = "These terms apply to every order you place in our online shop. The contract is \
            made when we accept your order and confirm it by e-mail to you. The goods remain our \
            property until they are paid in full, and the law of the country in which you live \
            applies to any dispute that may arise from this contract or from your use of the shop.";
        for (text, code) in [(de, "de"), (en, "en")] {
            let words = FunctionWords::count(text);
            assert!(words.is_plainly(code), "{code}");
            let other = if code == "de" { "en" } else { "de" };
            assert!(!words.is_plainly(other), "{code}");
            // The detector among the allowed languages answers the same, fully confident.
            let detector = Detector::with_allowlist(vec![Lang::Deu, Lang::Eng])
                .detect(text)
                .unwrap();
            assert_eq!(code_of(detector.lang()), Some(code));
            assert!(detector.confidence() > 0.99, "{code}");
            let (found, reliable) = detect_info(text, &langs()).unwrap();
            assert_eq!(
                (found.code.as_str(), found.confidence, reliable),
                (code, 1.0, true)
            );
        }
        // Short text, and other languages, go to the detector.
        assert!(
            !FunctionWords::count("Die AGB gelten für alle Verträge mit uns.").is_plainly("de")
        );
        let fr = "Les présentes conditions générales de vente s'appliquent à toutes les commandes \
            passées sur notre boutique en ligne par des consommateurs, et il a été convenu que le \
            contrat est conclu dès la confirmation de la commande par courrier électronique; on \
            peut aussi nous écrire à l'adresse indiquée dans les mentions légales du site.";
        let words = FunctionWords::count(fr);
        assert!(!words.is_plainly("en") && !words.is_plainly("de"));
        assert_eq!(detect(fr, &langs()).unwrap().code, "fr");
    }
}
