//! Boilerplate recognisable from markup alone: cookie-consent banners and consent-manager
//! layers. Their text is long prose ("Wir verwenden Cookies, um …") that can out-weigh a
//! short legal page (an imprint of short lines) in the style statistics, so both passes skip
//! them like unrendered elements.

/// Whether an element with these `class` and `id` values is a consent banner.
pub fn is_consent_banner(class: Option<&str>, id: Option<&str>) -> bool {
    class
        .into_iter()
        .flat_map(str::split_ascii_whitespace)
        .chain(id)
        .any(token_is_banner)
}

fn token_is_banner(token: &str) -> bool {
    // Called for every class token of the page: lower-case on the stack when short.
    let mut buf = [0u8; 48];
    let owned;
    let t: &str = match buf.get_mut(..token.len()) {
        Some(b) => {
            b.copy_from_slice(token.as_bytes());
            b.make_ascii_lowercase();
            std::str::from_utf8(b).unwrap_or(token)
        }
        None => {
            owned = token.to_ascii_lowercase();
            &owned
        }
    };
    let Some(&first) = t.as_bytes().first() else {
        return false;
    };
    const VENDORS: &[&str] = &[
        "onetrust",
        "cookiebot",
        "cybotcookiebot",
        "usercentrics",
        "borlabs-cookie",
        "didomi",
        "cookieyes",
        "cmplz",
        "cookie-law-info",
        "cookielawinfo",
        "klaro",
        "iubenda-cs",
        "truste-consent",
        "qc-cmp",
    ];
    if VENDORS
        .iter()
        .any(|v| v.as_bytes()[0] == first && t.starts_with(v))
    {
        return true;
    }
    // The topic words start with `c` or `g`: most tokens have neither where a word could be.
    let topic = t.bytes().enumerate().any(|(i, b)| {
        let rest = &t.as_bytes()[i..];
        match b {
            b'c' => rest.starts_with(b"cookie") || rest.starts_with(b"consent"),
            b'g' => rest.starts_with(b"gdpr"),
            _ => false,
        }
    });
    if !topic {
        return false;
    }
    const WIDGETS: &[&str] = &[
        "banner",
        "notice",
        "bar",
        "popup",
        "modal",
        "overlay",
        "layer",
        "dialog",
        "hint",
        "message",
        "window",
        "disclaimer",
    ];
    WIDGETS.iter().any(|w| t.contains(w)) || t.contains("cookie-consent") || t == "cc-window"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn banners_are_recognised() {
        for (class, id) in [
            (Some("cookie-consent-banner__text"), None),
            (Some("x cookie-notice"), None),
            (None, Some("onetrust-banner-sdk")),
            (None, Some("CybotCookiebotDialog")),
            (Some("cmplz-cookiebanner"), None),
            (Some("gdpr-modal"), None),
        ] {
            assert!(is_consent_banner(class, id), "{class:?} {id:?}");
        }
    }

    #[test]
    fn cookie_policy_content_is_not_a_banner() {
        for (class, id) in [
            (Some("content"), Some("cookies")),
            (Some("cookie-policy"), None),
            (None, Some("section-cookies-and-tracking")),
            (Some("consent"), None),
            (None, None),
        ] {
            assert!(!is_consent_banner(class, id), "{class:?} {id:?}");
        }
    }
}
