//! Text helpers both passes share: entity decoding, word and character counts, whitespace
//! folding.

use std::borrow::Cow;

/// Whether the text holds a character reference (memchr's vectorised search: this runs over
/// every text node and attribute value of the page).
fn has_reference(raw: &str) -> bool {
    memchr::memchr(b'&', raw.as_bytes()).is_some()
}

/// Decodes character references in text once.
pub(crate) fn decode_text(raw: &str) -> std::borrow::Cow<'_, str> {
    if has_reference(raw) {
        std::borrow::Cow::Owned(htmlize::unescape(raw).into_owned())
    } else {
        std::borrow::Cow::Borrowed(raw)
    }
}

/// Decodes character references in an attribute value read from the page, borrowing it when
/// it has none.
pub(super) fn decode_text_attribute(raw: &str) -> std::borrow::Cow<'_, str> {
    if has_reference(raw) {
        std::borrow::Cow::Owned(htmlize::unescape_attribute(raw).into_owned())
    } else {
        std::borrow::Cow::Borrowed(raw)
    }
}

/// Decodes character references in an attribute value once.
pub(crate) fn decode_attribute(raw: &str) -> String {
    if has_reference(raw) {
        htmlize::unescape_attribute(raw).into_owned()
    } else {
        raw.to_owned()
    }
}

/// Words (maximal non-whitespace runs, Unicode whitespace) and characters of the text with
/// its whitespace folded (runs become one space, both ends trimmed).
pub(super) fn count_words_and_chars(text: &str) -> (usize, u32) {
    /// ASCII is counted a block at a time, without branches (the compiler vectorises the
    /// block; the last block is padded with spaces, which count nothing); a block with other
    /// characters is read one character at a time.
    const BLOCK: usize = 32;
    let ascii_white = |b: u8| b == b' ' || b.wrapping_sub(b'\t') < 5;
    let mut words = 0usize;
    let mut chars = 0usize;
    // Whether the previous character was whitespace (the text starts after one).
    let mut after_white = true;
    let bytes = text.as_bytes();
    let mut padded = [b' '; BLOCK];
    let mut i = 0;
    while i < bytes.len() {
        let block = match bytes.get(i..i + BLOCK) {
            Some(block) => block,
            None => {
                let rest = &bytes[i..];
                padded[..rest.len()].copy_from_slice(rest);
                &padded[..]
            }
        };
        if block.iter().fold(0, |high, &b| high | b) < 0x80 {
            // One bit a byte: white space, and where a word starts (a non-white byte after
            // a white one).
            let mut white = 0u32;
            for (j, &b) in block.iter().enumerate() {
                white |= u32::from(ascii_white(b)) << j;
            }
            let after = (white << 1) | u32::from(after_white);
            words += (!white & after).count_ones() as usize;
            chars += (!white).count_ones() as usize;
            after_white = white >> (BLOCK - 1) == 1;
            i += BLOCK;
            continue;
        }
        // This block's bytes one character at a time (the last may run past it).
        let block_end = (i + BLOCK).min(bytes.len());
        while i < block_end {
            let b = bytes[i];
            // ASCII bytes need no decoding; others are decoded one character.
            let (white, len) = if b.is_ascii() {
                (ascii_white(b), 1)
            } else {
                match text.get(i..).and_then(|rest| rest.chars().next()) {
                    Some(c) => (c.is_whitespace(), c.len_utf8()),
                    None => return finish(words, chars),
                }
            };
            i += len;
            if !white {
                words += usize::from(after_white);
                chars += 1;
            }
            after_white = white;
        }
    }
    finish(words, chars)
}

/// Words and characters with one space between the words.
fn finish(words: usize, chars: usize) -> (usize, u32) {
    let chars = u32::try_from(chars).unwrap_or(u32::MAX);
    let gaps = words.saturating_sub(1) as u32;
    (words, chars.saturating_add(gaps))
}

/// Folds whitespace runs into single spaces and trims both ends.
pub(super) fn fold_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The tag name of the start tag at byte `start` of the page, when it is plain lower-case
/// ASCII as written (anything else is left to lol_html's own reading).
pub(crate) fn tag_in_source(source: &str, start: usize) -> Option<&str> {
    let rest = source.get(start..)?.strip_prefix('<')?;
    let end = rest
        .bytes()
        .position(|b| b.is_ascii_whitespace() || b == b'/' || b == b'>')
        .unwrap_or(rest.len());
    let name = &rest[..end];
    let plain = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    plain.then_some(name)
}

/// An attribute's lower-case name and decoded value, borrowed from the page when possible.
pub(crate) fn attribute<'a>(
    a: &lol_html::html_content::Attribute<'_>,
    source: Option<&'a str>,
) -> (Cow<'a, str>, Cow<'a, str>) {
    let slice = |loc: Option<lol_html::html_content::SourceLocation>| {
        source.and_then(|s| s.get(loc?.bytes()))
    };
    let name = match slice(a.name_source_location()) {
        Some(n) if !n.bytes().any(|b| b.is_ascii_uppercase()) => Cow::Borrowed(n),
        _ => Cow::Owned(a.name()),
    };
    let value = match slice(a.value_source_location()) {
        Some(v) => decode_text_attribute(v),
        // No value written (`<div hidden>`), or no page at hand.
        None if source.is_some() && a.value_source_location().is_none() && a.value().is_empty() => {
            Cow::Borrowed("")
        }
        None => Cow::Owned(decode_attribute(&a.value())),
    };
    (name, value)
}
