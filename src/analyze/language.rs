//! Language of the main content (whatlang, restricted to an allow-list).

use whatlang::{Detector, Lang};

use crate::output::Language;

/// Characters of text the detector reads: enough for a stable answer, bounded cost.
const SAMPLE_CHARS: usize = 6_000;

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
];

/// The whatlang language of an ISO 639-1 code.
pub fn lang_from_code(code: &str) -> Option<Lang> {
    CODES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code))
        .map(|(_, l)| *l)
}

fn code_of(lang: Lang) -> Option<&'static str> {
    CODES.iter().find(|(_, l)| *l == lang).map(|(c, _)| *c)
}

/// Detects the language of `text` among `allowed` (ISO 639-1 codes). `None` for text too
/// short or ambiguous to tell.
pub fn detect(text: &str, allowed: &[String]) -> Option<Language> {
    let allow: Vec<Lang> = allowed.iter().filter_map(|c| lang_from_code(c)).collect();
    if allow.is_empty() {
        return None;
    }
    let sample: String = text.chars().take(SAMPLE_CHARS).collect();
    let info = Detector::with_allowlist(allow).detect(&sample)?;
    Some(Language {
        code: code_of(info.lang())?.to_owned(),
        confidence: (info.confidence() * 1000.0).round() / 1000.0,
    })
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
    fn codes_round_trip() {
        for (code, lang) in CODES {
            assert_eq!(lang_from_code(code), Some(*lang));
            assert_eq!(code_of(*lang), Some(*code));
        }
        assert!(lang_from_code("xx").is_none());
    }
}
