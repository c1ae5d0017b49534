//! Language of the main content (whatlang, restricted to an allow-list).

use whatlang::{Detector, Lang};

use crate::model::Language;

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
/// Detects the language of `text` among `allowed` (ISO 639-1 codes). `None` for text too
/// short or ambiguous to tell.
pub fn detect(text: &str, allowed: &[String]) -> Option<Language> {
    detect_info(text, allowed).map(|(l, _)| l)
}

/// [`detect`], also telling whether whatlang deems the answer reliable.
pub fn detect_info(text: &str, allowed: &[String]) -> Option<(Language, bool)> {
    let allow: Vec<Lang> = allowed.iter().filter_map(|c| lang_from_code(c)).collect();
    if allow.is_empty() {
        return None;
    }
    let sample: String = text.chars().take(SAMPLE_CHARS).collect();
    let info = Detector::with_allowlist(allow).detect(&sample)?;
    let language = Language {
        code: code_of(info.lang())?.to_owned(),
        confidence: (info.confidence() * 1000.0).round() / 1000.0,
    };
    Some((language, info.is_reliable()))
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
        // Another script than the allowed languages': no answer.
        assert!(detect("Самые популярные кулинарные блоги и фуд-блогеры России, которые стоит читать каждый день.", &langs()).is_none());
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
}
