//! Text helpers both passes share: entity decoding, word and character counts, whitespace
//! folding.

/// Decodes character references in text once.
pub(crate) fn decode_text(raw: &str) -> std::borrow::Cow<'_, str> {
    if raw.contains('&') {
        std::borrow::Cow::Owned(htmlize::unescape(raw).into_owned())
    } else {
        std::borrow::Cow::Borrowed(raw)
    }
}

/// Decodes character references in an attribute value read from the page, borrowing it when
/// it has none.
pub(super) fn decode_text_attribute(raw: &str) -> std::borrow::Cow<'_, str> {
    if raw.contains('&') {
        std::borrow::Cow::Owned(htmlize::unescape_attribute(raw).into_owned())
    } else {
        std::borrow::Cow::Borrowed(raw)
    }
}

/// Decodes character references in an attribute value once.
pub(crate) fn decode_attribute(raw: &str) -> String {
    if raw.contains('&') {
        htmlize::unescape_attribute(raw).into_owned()
    } else {
        raw.to_owned()
    }
}

/// Words (maximal non-whitespace runs, Unicode whitespace) and characters of the text with
/// its whitespace folded (runs become one space, both ends trimmed).
pub(super) fn count_words_and_chars(text: &str) -> (usize, u32) {
    let mut words = 0usize;
    let mut chars = 0u32;
    let mut in_word = false;
    for c in text.chars() {
        if c.is_whitespace() {
            in_word = false;
        } else {
            if !in_word {
                words += 1;
                in_word = true;
            }
            chars = chars.saturating_add(1);
        }
    }
    let gaps = words.saturating_sub(1) as u32;
    (words, chars.saturating_add(gaps))
}

/// Folds whitespace runs into single spaces and trims both ends.
pub(super) fn fold_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
