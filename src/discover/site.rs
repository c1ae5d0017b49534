//! Which addresses belong to a shop: its registrable domain (by the public suffix list) and
//! that domain's subdomains, plus an allow-list of external hosts that publish legal texts for
//! shops. And the key under which one site job fetches a page at most once.

use url::{Host, Url};

/// The hosts a site job may follow links to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteScope {
    /// The registrable domain of the start page (`shop.co.uk` for `www.shop.co.uk`), or the
    /// host itself when it has none (an IP address, `localhost`).
    pub domain: String,
    /// Hosts outside the domain whose pages count as the shop's (each with its subdomains).
    pub external_hosts: Vec<String>,
}

impl SiteScope {
    /// The scope of a start page.
    pub fn of(start: &Url, external_hosts: &[String]) -> Option<SiteScope> {
        Some(SiteScope {
            domain: registrable_domain(start)?,
            external_hosts: external_hosts
                .iter()
                .map(|h| h.trim().trim_start_matches('.').to_ascii_lowercase())
                .filter(|h| !h.is_empty())
                .collect(),
        })
    }

    /// Whether `url` is the shop's: its registrable domain equals the start page's (so every
    /// subdomain counts), or its host is (a subdomain of) an allow-listed external host.
    pub fn contains(&self, url: &Url) -> bool {
        if registrable_domain(url).as_deref() == Some(self.domain.as_str()) {
            return true;
        }
        let Some(host) = url.host_str() else {
            return false;
        };
        let host = host.to_ascii_lowercase();
        self.external_hosts
            .iter()
            .any(|allowed| host == *allowed || host.ends_with(&format!(".{allowed}")))
    }

    /// Whether `url` is outside the shop's domain but on an allow-listed host.
    pub fn is_external(&self, url: &Url) -> bool {
        registrable_domain(url).as_deref() != Some(self.domain.as_str()) && self.contains(url)
    }
}

/// The registrable domain ("eTLD+1") of a URL's host, lower case; an IP address or a name
/// without a public suffix (e.g. `localhost`) is its own domain.
pub fn registrable_domain(url: &Url) -> Option<String> {
    match url.host()? {
        Host::Domain(name) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            if !name.contains('.') {
                return Some(name);
            }
            Some(psl::domain_str(&name).unwrap_or(&name).to_owned())
        }
        Host::Ipv4(ip) => Some(ip.to_string()),
        Host::Ipv6(ip) => Some(ip.to_string()),
    }
}

/// The key one site job fetches a page under at most once: scheme, a leading `www.`, a
/// trailing slash and the fragment do not make another page.
pub fn page_key(url: &Url) -> String {
    let host = url.host_str().unwrap_or("").to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    let path = url.path().trim_end_matches('/');
    let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
    match url.query() {
        Some(q) => format!("{host}{port}{path}?{q}"),
        None => format!("{host}{port}{path}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn same_site_is_the_registrable_domain_and_its_subdomains() {
        let scope = SiteScope::of(
            &url("https://www.shop.co.uk/"),
            &["legal-texts.example".into()],
        )
        .unwrap();
        assert_eq!(scope.domain, "shop.co.uk");
        for inside in [
            "https://shop.co.uk/terms",
            "http://legal.shop.co.uk/privacy",
            "https://www.shop.co.uk:8443/x",
            "https://texts.legal-texts.example/shop/agb",
        ] {
            assert!(scope.contains(&url(inside)), "{inside}");
        }
        for outside in [
            "https://othershop.co.uk/terms",
            "https://co.uk/",
            "https://facebook.com/shop.co.uk",
            "https://notlegal-texts.example/",
        ] {
            assert!(!scope.contains(&url(outside)), "{outside}");
        }
        assert!(scope.is_external(&url("https://legal-texts.example/a")));
        assert!(!scope.is_external(&url("https://shop.co.uk/a")));
        // Hosts without a public suffix and addresses are their own site.
        let local = SiteScope::of(&url("http://127.0.0.1:8080/"), &[]).unwrap();
        assert!(local.contains(&url("http://127.0.0.1:9999/agb")));
        assert!(!local.contains(&url("http://127.0.0.2/agb")));
        let test = SiteScope::of(&url("http://shop.test:1234/"), &[]).unwrap();
        assert!(test.contains(&url("http://legal.shop.test:1234/agb")));
    }

    #[test]
    fn page_keys_ignore_scheme_www_trailing_slash_and_fragment() {
        let a = page_key(&url("https://www.shop.de/agb/#top"));
        assert_eq!(a, page_key(&url("http://shop.de/agb")));
        assert_ne!(a, page_key(&url("http://shop.de/agb?page=2")));
        assert_ne!(a, page_key(&url("http://legal.shop.de/agb")));
    }
}
