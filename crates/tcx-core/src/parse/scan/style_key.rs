//! The naive style key of an element (tag and sorted attributes) and the fast hasher for
//! pass 1's maps.

use super::*;

/// The paper's naive style: tag plus attributes. Attributes are sorted by name so that the
/// same element written with another attribute order pools its characters; generated class
/// tokens and numbered `data-*` values (with a digit) are left out.
pub(super) fn naive_style_key(
    tag: &str,
    attrs: &mut [(Cow<'_, str>, Cow<'_, str>)],
    key: &mut String,
) {
    key.clear();
    key.push_str(tag);
    if attrs.is_empty() {
        return;
    }
    attrs.sort_unstable();
    for (name, value) in attrs.iter() {
        let (name, value) = (name.as_ref(), value.as_ref());
        let stable;
        // Only class and `data-*` values are looked at for digits (every attribute of every
        // element passes here).
        let numbered = || value.bytes().any(|b| b.is_ascii_digit());
        let value = if name == "class" && numbered() {
            stable = stable_classes(value);
            &stable
        } else if name.starts_with("data-") && numbered() {
            // An element's own number (React's `data-reactid="394"`, `data-index="7"`), not
            // its look: kept, it would give each element its own key. (`id` stays: numbered
            // ids also tell a form's fields apart, whose help lines must not pool.)
            ""
        } else {
            value
        };
        key.push(' ');
        key.push_str(name);
        key.push_str("=\"");
        if memchr::memchr(b'"', value.as_bytes()).is_some() {
            key.push_str(&value.replace('"', "&quot;"));
        } else {
            key.push_str(value);
        }
        key.push('"');
    }
}

/// The attributes written into a naive style key by [`naive_style_key`].
pub(super) fn parse_style_key(key: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = key.split_once(' ').map(|(_, r)| r).unwrap_or("");
    while let Some((name, after)) = rest.split_once("=\"") {
        let Some((value, tail)) = after.split_once('"') else {
            break;
        };
        out.push((name.trim().to_owned(), value.replace("&quot;", "\"")));
        rest = tail.trim_start();
    }
    out
}

/// Class tokens without digits. Generated classes (`y1e`, `x4`, `css-1q2w3e`, `ng-star-
/// inserted_12`) differ between elements of one visual style and would split its characters
/// over many keys (pages converted from PDF give every line its own classes).
pub(super) fn stable_classes(value: &str) -> String {
    value
        .split_ascii_whitespace()
        .filter(|t| !t.bytes().any(|b| b.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// FxHash: the maps of pass 1 hash short strings on every element; SipHash's DoS
/// resistance buys nothing there (keys come from one page, lookups are bounded by it).
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(b)).wrapping_mul(SEED);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(SEED);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write(&[i]);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type FastHash = BuildHasherDefault<FxHasher>;
