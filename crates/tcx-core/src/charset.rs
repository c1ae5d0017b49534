//! Character encoding detection and decoding of fetched or loaded pages (pure, no I/O).
//!
//! [`decode`] turns the raw bytes of a page into one UTF-8 `String`, choosing the encoding in
//! the order a browser would:
//!
//! 1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE);
//! 2. the `charset` parameter of the HTTP `Content-Type` header;
//! 3. a `<meta charset=…>` or `<meta http-equiv="Content-Type" content="…; charset=…">` in the
//!    first 1024 bytes;
//! 4. a guess by [`chardetng`] from the bytes and the top-level domain of the URL.
//!
//! The bytes are decoded exactly once. Malformed sequences become U+FFFD and are reported in
//! [`Decoded::had_errors`].
//!
//! [`sniff_mime`] and [`looks_like_html`] classify a body by its first bytes, for servers that
//! send no or a generic `Content-Type`.

use std::sync::LazyLock;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, REPLACEMENT, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};
use regex::bytes::Regex;

/// How many leading bytes the `<meta>` prescan looks at (as in the HTML standard).
pub const PRESCAN_BYTES: usize = 1024;

/// A page decoded to UTF-8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The text, without a byte order mark.
    pub text: String,
    /// The encoding the bytes were decoded with.
    pub encoding: &'static Encoding,
    /// Whether malformed byte sequences were replaced by U+FFFD.
    pub had_errors: bool,
}

/// Where the encoding of a page came from (see [`detect`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A byte order mark; the value is the length of the BOM in bytes.
    Bom(usize),
    /// The `charset` parameter of the `Content-Type` header.
    Header,
    /// A `<meta>` element in the first [`PRESCAN_BYTES`] bytes.
    Meta,
    /// The bytes are valid UTF-8 (or plain ASCII) and no label said otherwise.
    Utf8,
    /// A statistical guess by chardetng.
    Guess,
}

/// Chooses the encoding of `bytes` (see the module documentation for the order) without
/// decoding them.
pub fn detect(
    bytes: &[u8],
    content_type: Option<&str>,
    url: Option<&url::Url>,
) -> (&'static Encoding, Source) {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        return (encoding, Source::Bom(bom_len));
    }
    if let Some(encoding) = content_type
        .and_then(charset_param)
        .and_then(|label| label_to_encoding(label.as_bytes()))
    {
        return (encoding, Source::Header);
    }
    if let Some(encoding) = prescan_meta(bytes) {
        return (encoding, Source::Meta);
    }
    if std::str::from_utf8(bytes).is_ok() {
        return (UTF_8, Source::Utf8);
    }
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let tld = url.and_then(tld_of);
    (
        detector.guess(tld.as_deref(), Utf8Detection::Allow),
        Source::Guess,
    )
}

/// Decodes `bytes` to UTF-8, choosing the encoding from a BOM, the `Content-Type` header, a
/// `<meta>` prescan or a chardetng guess (in that order), then decoding once.
///
/// `url` only supplies the top-level domain for the guess (e.g. `de` favours windows-1252 over
/// other single-byte encodings).
///
/// ```
/// let page = b"<meta charset=\"iso-8859-1\"><p>Gr\xfc\xdfe</p>";
/// let decoded = tcx_core::decode(page, None, None);
/// assert_eq!(decoded.text, "<meta charset=\"iso-8859-1\"><p>Grüße</p>");
/// assert_eq!(decoded.encoding, encoding_rs::WINDOWS_1252);
/// ```
pub fn decode(bytes: &[u8], content_type: Option<&str>, url: Option<&url::Url>) -> Decoded {
    let (encoding, source) = detect(bytes, content_type, url);
    let body = match source {
        Source::Bom(len) => bytes.get(len..).unwrap_or_default(),
        _ => bytes,
    };
    let (text, had_errors) = encoding.decode_without_bom_handling(body);
    Decoded {
        text: text.into_owned(),
        encoding,
        had_errors,
    }
}

/// [`decode`] taking the bytes by value: a page in UTF-8 without a byte order mark (most
/// pages) becomes the text without a copy.
pub fn decode_owned(bytes: Vec<u8>, content_type: Option<&str>, url: Option<&url::Url>) -> Decoded {
    let (encoding, source) = detect(&bytes, content_type, url);
    if encoding == UTF_8 && !matches!(source, Source::Bom(_)) {
        match String::from_utf8(bytes) {
            Ok(text) => {
                return Decoded {
                    text,
                    encoding,
                    had_errors: false,
                };
            }
            Err(e) => return decode(e.as_bytes(), content_type, url),
        }
    }
    decode(&bytes, content_type, url)
}

/// The `charset` parameter of a `Content-Type` value, unquoted and trimmed
/// (`text/html; charset="ISO-8859-1"` → `ISO-8859-1`).
pub fn charset_param(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'').trim();
        (!value.is_empty()).then_some(value)
    })
}

/// Maps a label from a header or `<meta>` to the encoding to use: UTF-16 labels mean UTF-8
/// without a BOM and `x-user-defined` means windows-1252 (HTML standard); unknown labels and
/// the `replacement` encoding are ignored so that later steps can decide.
fn label_to_encoding(label: &[u8]) -> Option<&'static Encoding> {
    let encoding = Encoding::for_label(label)?;
    if encoding == UTF_16LE || encoding == UTF_16BE {
        Some(UTF_8)
    } else if encoding == X_USER_DEFINED {
        Some(WINDOWS_1252)
    } else if encoding == REPLACEMENT {
        None
    } else {
        Some(encoding)
    }
}

/// Finds `<meta charset=…>` or `<meta http-equiv=… content="…charset=…">` in the first
/// [`PRESCAN_BYTES`] bytes.
fn prescan_meta(bytes: &[u8]) -> Option<&'static Encoding> {
    static META: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?i-u)<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([a-z0-9_:.+\-]+)"#)
            .expect("valid meta charset regex")
    });
    let head = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    META.captures_iter(head)
        .filter_map(|c| c.get(1))
        .find_map(|m| label_to_encoding(m.as_bytes()))
}

/// The rightmost DNS label of the URL's host in lower-case ASCII, as chardetng wants it;
/// `None` for IP addresses, hosts without a usable label and non-ASCII hosts.
fn tld_of(url: &url::Url) -> Option<Vec<u8>> {
    let url::Host::Domain(host) = url.host()? else {
        return None;
    };
    let label = host.trim_end_matches('.').rsplit('.').next()?;
    let label = label.to_ascii_lowercase();
    let usable = !label.is_empty()
        && label
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    usable.then(|| label.into_bytes())
}

/// The MIME type of common non-HTML formats recognised by their magic bytes: PDF, PNG, GIF,
/// JPEG, WebP, ZIP (also docx/xlsx), gzip. `None` when none matches (which includes HTML).
pub fn sniff_mime(bytes: &[u8]) -> Option<&'static str> {
    const MAGIC: &[(&[u8], &str)] = &[
        (b"%PDF-", "application/pdf"),
        (b"\x89PNG\r\n\x1a\n", "image/png"),
        (b"GIF87a", "image/gif"),
        (b"GIF89a", "image/gif"),
        (b"\xff\xd8\xff", "image/jpeg"),
        (b"PK\x03\x04", "application/zip"),
        (b"\x1f\x8b", "application/gzip"),
    ];
    if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
        return Some("image/webp");
    }
    MAGIC
        .iter()
        .find(|(magic, _)| bytes.starts_with(magic))
        .map(|&(_, mime)| mime)
}

/// Whether the body looks like HTML: after an optional BOM and whitespace it starts with a
/// tag the HTML sniffing rules recognise (`<!DOCTYPE HTML`, `<html`, `<head`, `<body`, `<p`,
/// `<div`, `<!--` …), or `<html`/`<body`/`<!doctype html` occurs in the first
/// `PRESCAN_BYTES` (1024) bytes (pages with leading junk). Binary formats ([`sniff_mime`]) never
/// look like HTML.
pub fn looks_like_html(bytes: &[u8]) -> bool {
    const TAGS: &[&[u8]] = &[
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<script",
        b"<iframe",
        b"<h1",
        b"<div",
        b"<font",
        b"<table",
        b"<a",
        b"<style",
        b"<title",
        b"<b",
        b"<body",
        b"<br",
        b"<p",
        b"<meta",
        b"<link",
    ];
    static ANYWHERE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i-u)<(?:!doctype\s+html|html|body)[\s>]").expect("valid html sniff regex")
    });
    if sniff_mime(bytes).is_some() {
        return false;
    }
    let head = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    let start = Encoding::for_bom(head).map_or(0, |(_, len)| len);
    let trimmed = head.get(start..).unwrap_or_default().trim_ascii_start();
    if trimmed.starts_with(b"<!--") {
        return true;
    }
    let starts_with_tag = TAGS.iter().any(|tag| {
        trimmed.len() > tag.len()
            && trimmed[..tag.len()].eq_ignore_ascii_case(tag)
            && matches!(
                trimmed[tag.len()],
                b' ' | b'>' | b'\t' | b'\n' | b'\r' | b'\x0c'
            )
    });
    starts_with_tag || ANYWHERE.is_match(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    use encoding_rs::ISO_8859_2;

    #[test]
    fn decoding_owned_bytes_equals_decoding_borrowed_ones() {
        let pages: [&[u8]; 5] = [
            "<p>Grüße €</p>".as_bytes(),
            b"\xef\xbb\xbf<p>mit BOM</p>",
            b"<p>kaputt \xff\xfe hier</p>",
            b"<meta charset=\"iso-8859-1\"><p>Gr\xfc\xdfe</p>",
            b"",
        ];
        for page in pages {
            let borrowed = decode(page, None, None);
            let owned = decode_owned(page.to_vec(), None, None);
            assert_eq!(owned.text, borrowed.text);
            assert_eq!(owned.encoding, borrowed.encoding);
            assert_eq!(owned.had_errors, borrowed.had_errors);
        }
    }

    /// "Widerrufsbelehrung: Gebühr 5 € für Rücksendungen, Größe" in windows-1252 (0x80 = €).
    const W1252_BODY: &[u8] =
        b"<p>Widerrufsbelehrung: Die Geb\xfchr betr\xe4gt 5 \x80 f\xfcr R\xfccksendungen. \
          Gr\xf6\xdfe und Ma\xdfe der Ware \xe4ndern nichts an der Gew\xe4hrleistung.</p>";
    const W1252_TEXT: &str = "<p>Widerrufsbelehrung: Die Gebühr beträgt 5 € für Rücksendungen. \
          Größe und Maße der Ware ändern nichts an der Gewährleistung.</p>";

    fn page(head: &str, body: &[u8]) -> Vec<u8> {
        let mut v = format!("<!DOCTYPE html><html><head>{head}</head><body>").into_bytes();
        v.extend_from_slice(body);
        v.extend_from_slice(b"</body></html>");
        v
    }

    fn url(s: &str) -> url::Url {
        url::Url::parse(s).unwrap()
    }

    #[test]
    fn latin1_via_meta_charset() {
        let bytes = page(
            r#"<meta charset="ISO-8859-1">"#,
            b"<p>Gr\xfc\xdfe aus K\xf6ln</p>",
        );
        let d = decode(&bytes, None, None);
        assert_eq!(
            d.encoding, WINDOWS_1252,
            "iso-8859-1 is windows-1252 in encoding_rs"
        );
        assert!(d.text.contains("Grüße aus Köln"), "{}", d.text);
        assert!(!d.had_errors);
        assert_eq!(detect(&bytes, None, None).1, Source::Meta);
    }

    #[test]
    fn windows_1252_via_http_equiv_meta() {
        let bytes = page(
            r#"<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1252">"#,
            W1252_BODY,
        );
        let d = decode(&bytes, Some("text/html"), None);
        assert_eq!(d.encoding, WINDOWS_1252);
        assert!(d.text.contains(W1252_TEXT), "{}", d.text);
    }

    #[test]
    fn windows_1252_via_header() {
        let bytes = page("", W1252_BODY);
        let d = decode(&bytes, Some("text/html; charset=\"Windows-1252\""), None);
        assert_eq!(d.encoding, WINDOWS_1252);
        assert!(d.text.contains(W1252_TEXT));
        assert_eq!(
            detect(&bytes, Some("text/html;charset=cp1252"), None).1,
            Source::Header
        );
    }

    #[test]
    fn latin1_via_header() {
        let d = decode(b"Gr\xfc\xdfe", Some("text/html; charset=iso-8859-1"), None);
        assert_eq!(d.text, "Grüße");
    }

    #[test]
    fn windows_1252_guessed_without_label() {
        let bytes = page("<title>AGB</title>", W1252_BODY);
        let (encoding, source) =
            detect(&bytes, Some("text/html"), Some(&url("https://shop.de/agb")));
        assert_eq!(source, Source::Guess);
        assert_eq!(encoding, WINDOWS_1252);
        let d = decode(&bytes, None, Some(&url("https://www.example.de/agb")));
        assert_eq!(d.encoding, WINDOWS_1252);
        assert!(d.text.contains(W1252_TEXT));
        // Also without a URL (chardetng assumes .com).
        assert_eq!(decode(&bytes, None, None).encoding, WINDOWS_1252);
    }

    #[test]
    fn latin1_umlauts_guessed_without_label() {
        let bytes = page(
            "",
            b"<p>F\xfcr alle Bestellungen \xfcber unseren Online-Shop gelten die folgenden \
              Gesch\xe4ftsbedingungen. Die Lieferung erfolgt gem\xe4\xdf \xa7 3.</p>",
        );
        let d = decode(&bytes, None, Some(&url("http://händler.de/agb")));
        assert_eq!(d.encoding, WINDOWS_1252);
        assert!(d.text.contains("Für alle Bestellungen über"));
        assert!(d.text.contains("gemäß § 3"));
    }

    #[test]
    fn utf8_bom_wins_over_labels() {
        let mut bytes = b"\xef\xbb\xbf".to_vec();
        bytes.extend_from_slice(&page(
            r#"<meta charset="iso-8859-1">"#,
            "Grüße €".as_bytes(),
        ));
        let d = decode(&bytes, Some("text/html; charset=windows-1252"), None);
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.starts_with("<!DOCTYPE html>"), "BOM is stripped");
        assert!(d.text.contains("Grüße €"));
    }

    #[test]
    fn utf16_boms() {
        let text = "<p>Grüße €</p>";
        let mut le = vec![0xff, 0xfe];
        let mut be = vec![0xfe, 0xff];
        for unit in text.encode_utf16() {
            le.extend_from_slice(&unit.to_le_bytes());
            be.extend_from_slice(&unit.to_be_bytes());
        }
        let d = decode(&le, Some("text/html; charset=utf-8"), None);
        assert_eq!((d.encoding, d.text.as_str()), (UTF_16LE, text));
        let d = decode(&be, None, None);
        assert_eq!((d.encoding, d.text.as_str()), (UTF_16BE, text));
    }

    #[test]
    fn header_beats_meta() {
        let bytes = page(
            r#"<meta charset="iso-8859-2">"#,
            b"<p>Gr\xfc\xdfe 5 \x80</p>",
        );
        let d = decode(&bytes, Some("text/html; charset=windows-1252"), None);
        assert_eq!(d.encoding, WINDOWS_1252);
        assert!(d.text.contains("Grüße 5 €"));
        // Without the header the meta wins.
        assert_eq!(decode(&bytes, Some("text/html"), None).encoding, ISO_8859_2);
    }

    #[test]
    fn utf16_label_without_bom_means_utf8() {
        let bytes = page(r#"<meta charset="utf-16">"#, "Grüße".as_bytes());
        let d = decode(&bytes, None, None);
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.contains("Grüße"));
        let d = decode(
            "Grüße".as_bytes(),
            Some("text/html; charset=UTF-16LE"),
            None,
        );
        assert_eq!((d.encoding, d.text.as_str()), (UTF_8, "Grüße"));
    }

    #[test]
    fn unknown_labels_fall_through() {
        let bytes = page(r#"<meta charset="bogus-charset">"#, "Grüße".as_bytes());
        let d = decode(&bytes, Some("text/html; charset=nonsense"), None);
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(detect(&bytes, None, None).1, Source::Utf8);
        // `replacement` (e.g. iso-2022-kr) would destroy the page: ignored.
        let d = decode(b"Gr\xfc\xdfe", Some("text/html; charset=iso-2022-kr"), None);
        assert_eq!(d.encoding, WINDOWS_1252);
    }

    #[test]
    fn meta_after_prescan_window_is_ignored() {
        let mut head = "<!-- ".to_string();
        head.push_str(&"x".repeat(PRESCAN_BYTES));
        head.push_str(" --><meta charset=\"iso-8859-2\">");
        let bytes = page(&head, "Grüße".as_bytes());
        assert_eq!(decode(&bytes, None, None).encoding, UTF_8);
    }

    #[test]
    fn plain_ascii_and_utf8_are_utf8() {
        assert_eq!(decode(b"<p>plain</p>", None, None).encoding, UTF_8);
        let d = decode("<p>Grüße €</p>".as_bytes(), Some("text/html"), None);
        assert_eq!(d.encoding, UTF_8);
        assert!(!d.had_errors);
        assert_eq!(decode(b"", None, None).text, "");
    }

    #[test]
    fn malformed_utf8_reports_errors() {
        let d = decode(b"ok \xff\xfe\xfd", Some("text/html; charset=utf-8"), None);
        assert!(d.had_errors);
        assert!(d.text.contains('\u{fffd}'));
    }

    #[test]
    fn charset_param_parsing() {
        assert_eq!(charset_param("text/html; charset=UTF-8"), Some("UTF-8"));
        assert_eq!(
            charset_param("text/html;Charset=\"latin1\" ; q=1"),
            Some("latin1")
        );
        assert_eq!(charset_param("text/html"), None);
        assert_eq!(charset_param("text/html; charset="), None);
        assert_eq!(charset_param("charset=utf-8"), None, "no media type");
    }

    #[test]
    fn tld_extraction() {
        assert_eq!(
            tld_of(&url("https://www.Shop.DE./agb")),
            Some(b"de".to_vec())
        );
        assert_eq!(
            tld_of(&url("https://xn--hndler-kua.at/")),
            Some(b"at".to_vec())
        );
        assert_eq!(tld_of(&url("http://127.0.0.1/")), None);
        assert_eq!(tld_of(&url("http://[::1]/")), None);
        assert_eq!(tld_of(&url("file:///tmp/x.html")), None);
    }

    #[test]
    fn sniffing() {
        assert_eq!(sniff_mime(b"%PDF-1.7\n%..."), Some("application/pdf"));
        assert_eq!(sniff_mime(b"\x89PNG\r\n\x1a\n\0\0"), Some("image/png"));
        assert_eq!(sniff_mime(b"GIF89a..."), Some("image/gif"));
        assert_eq!(sniff_mime(b"\xff\xd8\xff\xe0"), Some("image/jpeg"));
        assert_eq!(sniff_mime(b"PK\x03\x04"), Some("application/zip"));
        assert_eq!(sniff_mime(b"\x1f\x8b\x08"), Some("application/gzip"));
        assert_eq!(sniff_mime(b"RIFF\0\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(sniff_mime(b"<html>"), None);

        assert!(looks_like_html(b"\xef\xbb\xbf \n<!DOCTYPE html><html>"));
        assert!(looks_like_html(b"<HTML lang=de>"));
        assert!(looks_like_html(b"<!-- shop --><div>"));
        assert!(looks_like_html(b"<p>AGB</p>"));
        assert!(looks_like_html(b"Warning: notice in line 3\n<html><body>"));
        assert!(!looks_like_html(b"<pre>x</pre>"));
        assert!(!looks_like_html(b"Just some plain text, no markup."));
        assert!(!looks_like_html(b"%PDF-1.4 <html>"));
        assert!(!looks_like_html(b"{\"json\": true}"));
        assert!(!looks_like_html(b""));
    }
}
