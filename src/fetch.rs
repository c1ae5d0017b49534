//! The HTTP edge: fetch one page with limits, a redirect policy and an address guard, and
//! decode it to UTF-8 ([`FetchedPage`]).
//!
//! Safety rules (a job's URL must never reach internal services):
//! - only `http` and `https`, also for every redirect;
//! - at most `fetch.max_redirects` redirects;
//! - unless `fetch.allow_private_networks`, no connection to a non-public address
//!   ([`classify`]): host names are checked by a custom resolver ([`reqwest::dns::Resolve`])
//!   on every lookup (so DNS rebinding cannot slip through: reqwest connects to exactly the
//!   addresses the resolver returned), and IP-literal hosts, which never reach a resolver, are
//!   checked before the first request and in the redirect policy;
//! - system proxies are ignored (a proxy would resolve the host instead of our resolver);
//! - a connect timeout and a total deadline (headers and body);
//! - the decompressed body is capped while streaming (decompression bombs);
//! - only HTML is accepted (`text/html`, `application/xhtml+xml`, or a generic/missing type
//!   whose body sniffs as HTML).

use std::error::Error as StdError;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION};
use reqwest::redirect;
use thiserror::Error;
use url::{Host, Url};

use crate::config::FetchSettings;
use tcx_core as charset;

/// The `Accept` header sent with every request.
const ACCEPT_HTML: &str = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1";

/// A page fetched over HTTP (or loaded from a file, see [`crate::source`]) and decoded to
/// UTF-8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedPage {
    /// The URL that was asked for.
    pub url: String,
    /// The URL after redirects.
    pub final_url: String,
    /// The HTTP status of the final response.
    pub status: u16,
    /// The `Content-Type` header of the final response, if any.
    pub content_type: Option<String>,
    /// The page decoded to UTF-8.
    pub html: String,
    /// The name of the encoding the body was decoded from (e.g. `windows-1252`).
    pub encoding: &'static str,
    /// Length of the body in bytes after content decoding (gzip, brotli, deflate), before
    /// charset decoding.
    pub bytes: usize,
}

impl FetchedPage {
    /// The page's provenance for its Document, read at `fetched_at` (RFC 3339).
    pub fn source(&self, fetched_at: String) -> tcx_core::Source {
        tcx_core::Source::new(
            Some(self.url.clone()),
            Some(self.final_url.clone()),
            Some(fetched_at),
            Some(self.encoding.to_owned()),
        )
    }
}

/// Why a page could not be fetched.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FetchError {
    /// The URL cannot be parsed or has no host.
    #[error("invalid URL: {0}")]
    InvalidUrl(String),
    /// The URL (or a redirect) uses a scheme other than http or https.
    #[error("unsupported URL scheme {0:?} (only http and https are fetched)")]
    UnsupportedScheme(String),
    /// The host is or resolves to a non-public address and private networks are not allowed.
    #[error(
        "refusing to connect to {host} ({addr}, a {} address); \
         set fetch.allow_private_networks to allow",
        classify(*.addr).describe()
    )]
    AddressRefused {
        /// The host as written in the URL.
        host: String,
        /// The refused address.
        addr: IpAddr,
    },
    /// The host name could not be resolved.
    #[error("DNS lookup failed: {0}")]
    Dns(String),
    /// No connection could be made, or it broke before a response arrived.
    #[error("connection failed: {0}")]
    Connect(String),
    /// The connect timeout or the total deadline passed.
    #[error("request timed out")]
    Timeout,
    /// More redirects than `fetch.max_redirects`.
    #[error("too many redirects")]
    TooManyRedirects,
    /// The final response had a non-2xx status.
    #[error("HTTP status {0}")]
    HttpStatus(u16),
    /// The response is not HTML; the value is the content type or the sniffed kind.
    #[error("not an HTML page: {0}")]
    NotHtml(String),
    /// The (decompressed) body is larger than `fetch.max_body_bytes`.
    #[error("response body larger than {limit} bytes")]
    TooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// The body could not be read or decompressed.
    #[error("cannot read the response body: {0}")]
    Body(String),
    /// The HTTP client could not be built from the settings (e.g. an invalid user agent).
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}

impl FetchError {
    /// A stable snake_case label for metrics and result messages.
    pub fn kind(&self) -> &'static str {
        match self {
            FetchError::InvalidUrl(_) => "invalid_url",
            FetchError::UnsupportedScheme(_) => "unsupported_scheme",
            FetchError::AddressRefused { .. } => "address_refused",
            FetchError::Dns(_) => "dns",
            FetchError::Connect(_) => "connect",
            FetchError::Timeout => "timeout",
            FetchError::TooManyRedirects => "too_many_redirects",
            FetchError::HttpStatus(_) => "http_status",
            FetchError::NotHtml(_) => "not_html",
            FetchError::TooLarge { .. } => "too_large",
            FetchError::Body(_) => "body",
            FetchError::Client(_) => "client",
        }
    }

    /// Whether trying again later may succeed: timeouts, connection and DNS failures, body
    /// read errors, and the statuses 408, 429 and 5xx.
    pub fn retryable(&self) -> bool {
        match self {
            FetchError::Timeout | FetchError::Connect(_) | FetchError::Dns(_) => true,
            FetchError::Body(_) => true,
            FetchError::HttpStatus(status) => {
                matches!(status, 408 | 429) || (500..=599).contains(status)
            }
            _ => false,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Address classification and guard

/// What kind of address an IP is, for the address guard. Everything but
/// [`AddressClass::Public`] is refused unless private networks are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressClass {
    /// A globally routable address.
    Public,
    /// `0.0.0.0/8`, `::`.
    Unspecified,
    /// `127.0.0.0/8`, `::1`.
    Loopback,
    /// RFC 1918: `10/8`, `172.16/12`, `192.168/16`.
    Private,
    /// `169.254/16`, `fe80::/10`.
    LinkLocal,
    /// `fc00::/7` (and the deprecated site-local `fec0::/10`).
    UniqueLocal,
    /// Carrier-grade NAT, `100.64/10`.
    SharedAddressSpace,
    /// `224/4`, `ff00::/8`.
    Multicast,
    /// `255.255.255.255`.
    Broadcast,
    /// `192.0.2/24`, `198.51.100/24`, `203.0.113/24`, `2001:db8::/32`, `3fff::/20`.
    Documentation,
    /// Other special-purpose ranges: `192.0.0/24`, `198.18/15`, `240/4`, `100::/64`,
    /// `2001::/23` (IETF protocol assignments, e.g. Teredo).
    Reserved,
}

impl AddressClass {
    /// Whether connections to this class are allowed without `allow_private_networks`.
    pub fn is_public(self) -> bool {
        self == AddressClass::Public
    }

    /// A short human description ("loopback", "private" …).
    pub fn describe(self) -> &'static str {
        match self {
            AddressClass::Public => "public",
            AddressClass::Unspecified => "unspecified",
            AddressClass::Loopback => "loopback",
            AddressClass::Private => "private",
            AddressClass::LinkLocal => "link-local",
            AddressClass::UniqueLocal => "unique-local",
            AddressClass::SharedAddressSpace => "shared (carrier-grade NAT)",
            AddressClass::Multicast => "multicast",
            AddressClass::Broadcast => "broadcast",
            AddressClass::Documentation => "documentation",
            AddressClass::Reserved => "reserved",
        }
    }
}

/// Classifies an address. IPv6 addresses that embed an IPv4 address (IPv4-mapped
/// `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are
/// classified by the embedded IPv4 address.
pub fn classify(ip: IpAddr) -> AddressClass {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn classify_v4(ip: Ipv4Addr) -> AddressClass {
    let [a, b, c, _] = ip.octets();
    match (a, b, c) {
        _ if ip.is_broadcast() => AddressClass::Broadcast,
        (0, _, _) => AddressClass::Unspecified,
        (127, _, _) => AddressClass::Loopback,
        (10, _, _) => AddressClass::Private,
        (172, 16..=31, _) => AddressClass::Private,
        (192, 168, _) => AddressClass::Private,
        (169, 254, _) => AddressClass::LinkLocal,
        (100, 64..=127, _) => AddressClass::SharedAddressSpace,
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => AddressClass::Documentation,
        (192, 0, 0) | (198, 18..=19, _) => AddressClass::Reserved,
        (224..=239, _, _) => AddressClass::Multicast,
        (240..=255, _, _) => AddressClass::Reserved,
        _ => AddressClass::Public,
    }
}

fn classify_v6(ip: Ipv6Addr) -> AddressClass {
    if ip.is_unspecified() {
        return AddressClass::Unspecified;
    }
    if ip.is_loopback() {
        return AddressClass::Loopback;
    }
    if let Some(v4) = embedded_v4(ip) {
        return classify_v4(v4);
    }
    let s = ip.segments();
    match s[0] {
        0xff00..=0xffff => AddressClass::Multicast,
        0xfe80..=0xfebf => AddressClass::LinkLocal,
        0xfec0..=0xfeff | 0xfc00..=0xfdff => AddressClass::UniqueLocal,
        0x2001 if s[1] == 0x0db8 => AddressClass::Documentation,
        0x3fff if s[1] <= 0x0fff => AddressClass::Documentation,
        0x2001 if s[1] < 0x0200 => AddressClass::Reserved,
        0x0100 if s[1..4] == [0, 0, 0] => AddressClass::Reserved,
        // Everything outside the global unicast range 2000::/3 is reserved.
        0x2000..=0x3fff => AddressClass::Public,
        _ => AddressClass::Reserved,
    }
}

/// The IPv4 address inside an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 IPv6 address.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let o = ip.octets();
    let tail = Ipv4Addr::new(o[12], o[13], o[14], o[15]);
    match s {
        [0, 0, 0, 0, 0, 0xffff, _, _] | [0, 0, 0, 0, 0, 0, _, _] => Some(tail),
        [0x64, 0xff9b, 0, 0, 0, 0, _, _] => Some(tail),
        [0x2002, ..] => Some(Ipv4Addr::new(o[2], o[3], o[4], o[5])),
        _ => None,
    }
}

/// Decides which addresses may be connected to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressGuard {
    allow_private_networks: bool,
    exempt: Vec<IpAddr>,
}

impl AddressGuard {
    /// A guard that refuses every non-public address unless `allow_private_networks`.
    pub fn new(allow_private_networks: bool) -> AddressGuard {
        AddressGuard {
            allow_private_networks,
            exempt: Vec::new(),
        }
    }

    /// Also allows this one address even if it is not public (e.g. a known internal mirror,
    /// or the loopback test server).
    pub fn exempt(mut self, ip: IpAddr) -> AddressGuard {
        self.exempt.push(ip);
        self
    }

    /// Whether a connection to `ip` is allowed.
    pub fn permits(&self, ip: IpAddr) -> bool {
        self.allow_private_networks
            || classify(ip).is_public()
            || self.exempt.contains(&ip)
            || self.exempt.contains(&ip.to_canonical())
    }

    /// Checks a URL's host if it is an IP literal (a host name is checked when it resolves).
    pub fn check_url(&self, url: &Url) -> Result<(), FetchError> {
        let ip = match url.host() {
            Some(Host::Ipv4(v4)) => IpAddr::V4(v4),
            Some(Host::Ipv6(v6)) => IpAddr::V6(v6),
            _ => return Ok(()),
        };
        if self.permits(ip) {
            Ok(())
        } else {
            Err(FetchError::AddressRefused {
                host: url.host_str().unwrap_or_default().to_owned(),
                addr: ip,
            })
        }
    }
}

/// Parses and checks a URL before anything is sent: it must be absolute, `http` or `https`,
/// have a host, and an IP-literal host must pass the guard.
pub fn check_url(url: &str, guard: &AddressGuard) -> Result<Url, FetchError> {
    let parsed =
        Url::parse(url.trim()).map_err(|e| FetchError::InvalidUrl(format!("{url}: {e}")))?;
    check_target(&parsed, guard)?;
    Ok(parsed)
}

fn check_target(url: &Url, guard: &AddressGuard) -> Result<(), FetchError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(FetchError::UnsupportedScheme(url.scheme().to_owned()));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(FetchError::InvalidUrl(format!("{url}: no host")));
    }
    guard.check_url(url)
}

/// The redirect policy as a pure function: may the client follow a redirect to `next` after
/// `previous` requests (the initial one included) when at most `max_redirects` redirects are
/// allowed? Refuses non-http(s) schemes and IP-literal hosts the guard refuses.
pub fn check_redirect(
    next: &Url,
    previous: usize,
    max_redirects: usize,
    guard: &AddressGuard,
) -> Result<(), FetchError> {
    if previous > max_redirects {
        return Err(FetchError::TooManyRedirects);
    }
    check_target(next, guard)
}

/// A resolver that drops addresses the guard refuses, and fails with
/// [`FetchError::AddressRefused`] when none is left.
struct GuardedResolver {
    guard: AddressGuard,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let guard = self.guard.clone();
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let resolved: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await
                .map_err(|e| FetchError::Dns(format!("{host}: {e}")))?
                .collect();
            let (allowed, refused): (Vec<SocketAddr>, Vec<SocketAddr>) =
                resolved.into_iter().partition(|a| guard.permits(a.ip()));
            if allowed.is_empty() {
                return Err(match refused.first() {
                    Some(addr) => FetchError::AddressRefused {
                        host,
                        addr: addr.ip(),
                    },
                    None => FetchError::Dns(format!("{host}: no addresses")),
                }
                .into());
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Fetcher

/// An HTTP client with tcx's limits. Build one per process and share it (cloning is cheap:
/// the connection pool is reference-counted).
#[derive(Debug, Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    guard: AddressGuard,
    max_body_bytes: usize,
}

impl Fetcher {
    /// Builds a fetcher from the `[fetch]` settings.
    pub fn new(settings: &FetchSettings) -> Result<Fetcher, FetchError> {
        Fetcher::with_guard(settings, AddressGuard::new(settings.allow_private_networks))
    }

    /// Builds a fetcher with an explicit address guard (e.g. with exempt addresses);
    /// `settings.allow_private_networks` is ignored in favour of the guard.
    pub fn with_guard(
        settings: &FetchSettings,
        guard: AddressGuard,
    ) -> Result<Fetcher, FetchError> {
        let max_redirects = settings.max_redirects;
        let policy_guard = guard.clone();
        let policy = redirect::Policy::custom(move |attempt| {
            match check_redirect(
                attempt.url(),
                attempt.previous().len(),
                max_redirects,
                &policy_guard,
            ) {
                Ok(()) => attempt.follow(),
                Err(e) => attempt.error(e),
            }
        });
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(settings.connect_timeout_secs))
            .timeout(Duration::from_secs(settings.timeout_secs))
            .redirect(policy)
            .dns_resolver(Arc::new(GuardedResolver {
                guard: guard.clone(),
            }))
            .no_proxy()
            .user_agent(settings.user_agent.as_str())
            .gzip(true)
            .brotli(true)
            .deflate(true)
            .build()
            .map_err(|e| FetchError::Client(error_chain(&e)))?;
        Ok(Fetcher {
            client,
            guard,
            max_body_bytes: settings.max_body_bytes,
        })
    }

    /// Fetches `url`, follows redirects, checks status, content type and size, and decodes the
    /// body with [`charset::decode`].
    pub async fn fetch(&self, url: &str) -> Result<FetchedPage, FetchError> {
        let target = check_url(url, &self.guard)?;
        let mut response = self
            .client
            .get(target)
            .header(ACCEPT, ACCEPT_HTML)
            .send()
            .await
            .map_err(|e| map_reqwest_error(&e))?;
        let final_url = response.url().clone();
        let status = response.status();
        if !status.is_success() {
            // The redirect layer stops (without asking the policy) at a Location with a
            // non-http(s) scheme; report that as what it is.
            if status.is_redirection()
                && let Some(next) = response
                    .headers()
                    .get(LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|loc| final_url.join(loc).ok())
                && !matches!(next.scheme(), "http" | "https")
            {
                return Err(FetchError::UnsupportedScheme(next.scheme().to_owned()));
            }
            return Err(FetchError::HttpStatus(status.as_u16()));
        }
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let verdict = content_type_verdict(content_type.as_deref());
        if let ContentTypeVerdict::Reject(mime) = verdict {
            return Err(FetchError::NotHtml(mime));
        }
        let limit = self.max_body_bytes;
        let declared = response.content_length();
        if declared.is_some_and(|len| len > limit as u64) {
            return Err(FetchError::TooLarge { limit });
        }
        let capacity = declared.map_or(64 * 1024, |len| len as usize).min(limit);
        let mut body = Vec::with_capacity(capacity);
        while let Some(chunk) = response.chunk().await.map_err(|e| map_body_error(&e))? {
            if body.len() + chunk.len() > limit {
                return Err(FetchError::TooLarge { limit });
            }
            body.extend_from_slice(&chunk);
        }
        if let Some(kind) = charset::sniff_mime(&body) {
            return Err(FetchError::NotHtml(format!("{kind} (sniffed)")));
        }
        if let ContentTypeVerdict::Sniff(declared) = verdict
            && !charset::looks_like_html(&body)
        {
            return Err(FetchError::NotHtml(declared));
        }
        let decoded = charset::decode(&body, content_type.as_deref(), Some(&final_url));
        Ok(FetchedPage {
            url: url.to_owned(),
            final_url: final_url.into(),
            status: status.as_u16(),
            content_type,
            html: decoded.text,
            encoding: decoded.encoding.name(),
            bytes: body.len(),
        })
    }
}

/// What to do with a response given its `Content-Type`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum ContentTypeVerdict {
    /// Declared HTML.
    Html,
    /// Missing or generic: accept only if the body sniffs as HTML. The value names the type.
    Sniff(String),
    /// Declared as something else (the essence, e.g. `application/pdf`).
    Reject(String),
}

fn content_type_verdict(content_type: Option<&str>) -> ContentTypeVerdict {
    let essence = content_type
        .and_then(|ct| ct.split(';').next())
        .map(|e| e.trim().to_ascii_lowercase())
        .unwrap_or_default();
    match essence.as_str() {
        "text/html" | "application/xhtml+xml" => ContentTypeVerdict::Html,
        "" => ContentTypeVerdict::Sniff("missing content type".to_owned()),
        "text/plain" | "application/octet-stream" => ContentTypeVerdict::Sniff(essence),
        _ => ContentTypeVerdict::Reject(essence),
    }
}

/// Finds a [`FetchError`] raised by our resolver or redirect policy in an error's source chain
/// (also inside `io::Error`s, whose `source()` skips the wrapped error).
fn find_fetch_error<'a>(err: &'a (dyn StdError + 'static)) -> Option<&'a FetchError> {
    let mut current = Some(err);
    while let Some(e) = current {
        if let Some(found) = e.downcast_ref::<FetchError>() {
            return Some(found);
        }
        if let Some(found) = e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .and_then(|inner| find_fetch_error(inner))
        {
            return Some(found);
        }
        current = e.source();
    }
    None
}

fn map_reqwest_error(err: &reqwest::Error) -> FetchError {
    if let Some(found) = find_fetch_error(err) {
        return found.clone();
    }
    if err.is_timeout() {
        FetchError::Timeout
    } else if err.is_redirect() {
        FetchError::TooManyRedirects
    } else if err.is_body() || err.is_decode() {
        FetchError::Body(error_chain(err))
    } else if err.is_builder() {
        FetchError::InvalidUrl(error_chain(err))
    } else {
        FetchError::Connect(error_chain(err))
    }
}

fn map_body_error(err: &reqwest::Error) -> FetchError {
    if err.is_timeout() {
        FetchError::Timeout
    } else {
        FetchError::Body(error_chain(err))
    }
}

/// "outer: inner: innermost", leaving out messages that repeat the previous one.
fn error_chain(err: &(dyn StdError + 'static)) -> String {
    let mut out = err.to_string();
    let mut last = out.clone();
    let mut current = err.source();
    while let Some(e) = current {
        let msg = e.to_string();
        if !msg.is_empty() && !last.contains(&msg) {
            out.push_str(": ");
            out.push_str(&msg);
        }
        last = msg;
        current = e.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn non_public_addresses_are_classified() {
        for (addr, class) in [
            ("127.0.0.1", AddressClass::Loopback),
            ("127.255.0.9", AddressClass::Loopback),
            ("10.1.2.3", AddressClass::Private),
            ("172.16.0.1", AddressClass::Private),
            ("172.31.255.254", AddressClass::Private),
            ("192.168.1.1", AddressClass::Private),
            ("169.254.169.254", AddressClass::LinkLocal),
            ("100.64.0.1", AddressClass::SharedAddressSpace),
            ("100.127.255.255", AddressClass::SharedAddressSpace),
            ("0.0.0.0", AddressClass::Unspecified),
            ("0.1.2.3", AddressClass::Unspecified),
            ("224.0.0.1", AddressClass::Multicast),
            ("255.255.255.255", AddressClass::Broadcast),
            ("192.0.2.10", AddressClass::Documentation),
            ("198.51.100.1", AddressClass::Documentation),
            ("203.0.113.7", AddressClass::Documentation),
            ("198.18.0.1", AddressClass::Reserved),
            ("240.0.0.1", AddressClass::Reserved),
            ("::1", AddressClass::Loopback),
            ("::", AddressClass::Unspecified),
            ("::ffff:127.0.0.1", AddressClass::Loopback),
            ("::ffff:10.0.0.1", AddressClass::Private),
            ("::ffff:169.254.169.254", AddressClass::LinkLocal),
            ("::127.0.0.1", AddressClass::Loopback),
            ("64:ff9b::192.168.0.1", AddressClass::Private),
            ("2002:c0a8:0101::1", AddressClass::Private),
            ("fc00::1", AddressClass::UniqueLocal),
            ("fd12:3456::1", AddressClass::UniqueLocal),
            ("fe80::1", AddressClass::LinkLocal),
            ("ff02::1", AddressClass::Multicast),
            ("2001:db8::1", AddressClass::Documentation),
            ("3fff::1", AddressClass::Documentation),
            ("2001::1", AddressClass::Reserved),
            ("100::1", AddressClass::Reserved),
        ] {
            assert_eq!(classify(ip(addr)), class, "{addr}");
            assert!(
                !AddressGuard::new(false).permits(ip(addr)),
                "{addr} must be refused"
            );
            assert!(
                AddressGuard::new(true).permits(ip(addr)),
                "{addr} allowed when configured"
            );
        }
    }

    #[test]
    fn public_addresses_are_allowed() {
        for addr in [
            "8.8.8.8",
            "1.1.1.1",
            "172.15.255.255",
            "172.32.0.1",
            "100.63.255.255",
            "100.128.0.1",
            "193.99.144.80",
            "2001:4860::8888",
            "2a00:1450:4001:830::200e",
            "::ffff:8.8.8.8",
            "64:ff9b::8.8.8.8",
        ] {
            assert_eq!(classify(ip(addr)), AddressClass::Public, "{addr}");
            assert!(AddressGuard::new(false).permits(ip(addr)), "{addr}");
        }
    }

    #[test]
    fn exempt_addresses_pass_the_guard() {
        let guard = AddressGuard::new(false).exempt(ip("127.0.0.1"));
        assert!(guard.permits(ip("127.0.0.1")));
        assert!(guard.permits(ip("::ffff:127.0.0.1")));
        assert!(!guard.permits(ip("127.0.0.2")));
        assert!(!guard.permits(ip("::1")));
    }

    #[test]
    fn urls_are_checked_before_sending() {
        let guard = AddressGuard::new(false);
        assert!(check_url("https://shop.example.de/agb", &guard).is_ok());
        assert_eq!(
            check_url("not a url", &guard).unwrap_err().kind(),
            "invalid_url"
        );
        assert_eq!(
            check_url("/agb.html", &guard).unwrap_err().kind(),
            "invalid_url"
        );
        assert_eq!(
            check_url("ftp://shop.example/agb", &guard).unwrap_err(),
            FetchError::UnsupportedScheme("ftp".into())
        );
        assert_eq!(
            check_url("file:///etc/passwd", &guard).unwrap_err().kind(),
            "unsupported_scheme"
        );
        for (u, host, addr) in [
            ("http://127.0.0.1:8080/x", "127.0.0.1", "127.0.0.1"),
            ("http://[::1]/", "[::1]", "::1"),
            (
                "http://[::ffff:7f00:1]/",
                "[::ffff:7f00:1]",
                "::ffff:127.0.0.1",
            ),
            // WHATWG URL parsing turns these spellings into IPv4 literals.
            ("http://0x7f.0.0.1/", "127.0.0.1", "127.0.0.1"),
            ("http://2130706433/", "127.0.0.1", "127.0.0.1"),
            (
                "http://169.254.169.254/latest/meta-data",
                "169.254.169.254",
                "169.254.169.254",
            ),
        ] {
            let err = check_url(u, &guard).unwrap_err();
            assert_eq!(
                err,
                FetchError::AddressRefused {
                    host: host.into(),
                    addr: ip(addr)
                },
                "{u}"
            );
            assert!(!err.retryable());
            assert!(check_url(u, &AddressGuard::new(true)).is_ok(), "{u}");
        }
        let msg = check_url("http://10.0.0.1/", &guard)
            .unwrap_err()
            .to_string();
        assert!(msg.contains("10.0.0.1") && msg.contains("private"), "{msg}");
    }

    #[test]
    fn redirect_policy_decisions() {
        let guard = AddressGuard::new(false);
        let public = url("https://www.example.com/agb");
        assert!(check_redirect(&public, 1, 5, &guard).is_ok());
        assert!(check_redirect(&public, 5, 5, &guard).is_ok());
        assert_eq!(
            check_redirect(&public, 6, 5, &guard),
            Err(FetchError::TooManyRedirects)
        );
        assert_eq!(
            check_redirect(&public, 1, 0, &guard),
            Err(FetchError::TooManyRedirects)
        );
        for private in [
            "http://127.0.0.1/admin",
            "http://10.0.0.5/",
            "http://192.168.0.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://[fc00::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://100.64.0.1/",
        ] {
            let err = check_redirect(&url(private), 1, 5, &guard).unwrap_err();
            assert_eq!(err.kind(), "address_refused", "{private}");
            assert!(check_redirect(&url(private), 1, 5, &AddressGuard::new(true)).is_ok());
        }
        for scheme in [
            "file:///etc/passwd",
            "ftp://example.com/",
            "gopher://example.com/",
        ] {
            let err = check_redirect(&url(scheme), 1, 5, &AddressGuard::new(true)).unwrap_err();
            assert_eq!(err.kind(), "unsupported_scheme", "{scheme}");
        }
    }

    #[test]
    fn kinds_and_retryability() {
        let cases = [
            (FetchError::InvalidUrl("x".into()), "invalid_url", false),
            (
                FetchError::UnsupportedScheme("ftp".into()),
                "unsupported_scheme",
                false,
            ),
            (
                FetchError::AddressRefused {
                    host: "localhost".into(),
                    addr: ip("127.0.0.1"),
                },
                "address_refused",
                false,
            ),
            (FetchError::Dns("x".into()), "dns", true),
            (FetchError::Connect("x".into()), "connect", true),
            (FetchError::Timeout, "timeout", true),
            (FetchError::TooManyRedirects, "too_many_redirects", false),
            (FetchError::HttpStatus(404), "http_status", false),
            (FetchError::HttpStatus(410), "http_status", false),
            (FetchError::HttpStatus(408), "http_status", true),
            (FetchError::HttpStatus(429), "http_status", true),
            (FetchError::HttpStatus(500), "http_status", true),
            (FetchError::HttpStatus(503), "http_status", true),
            (
                FetchError::NotHtml("application/pdf".into()),
                "not_html",
                false,
            ),
            (FetchError::TooLarge { limit: 10 }, "too_large", false),
            (FetchError::Body("reset".into()), "body", true),
            (FetchError::Client("x".into()), "client", false),
        ];
        for (err, kind, retryable) in cases {
            assert_eq!(err.kind(), kind, "{err}");
            assert_eq!(err.retryable(), retryable, "{err}");
        }
    }

    #[test]
    fn content_type_verdicts() {
        use ContentTypeVerdict::*;
        assert_eq!(content_type_verdict(Some("text/html; charset=utf-8")), Html);
        assert_eq!(content_type_verdict(Some("TEXT/HTML")), Html);
        assert_eq!(content_type_verdict(Some("application/xhtml+xml")), Html);
        assert!(matches!(content_type_verdict(None), Sniff(_)));
        assert!(matches!(content_type_verdict(Some("")), Sniff(_)));
        assert_eq!(
            content_type_verdict(Some("text/plain")),
            Sniff("text/plain".into())
        );
        assert!(matches!(
            content_type_verdict(Some("application/octet-stream")),
            Sniff(_)
        ));
        assert_eq!(
            content_type_verdict(Some("application/pdf")),
            Reject("application/pdf".into())
        );
        assert!(matches!(content_type_verdict(Some("image/png")), Reject(_)));
        assert!(matches!(
            content_type_verdict(Some("application/json")),
            Reject(_)
        ));
    }

    #[test]
    fn client_builds_from_default_like_settings() {
        let settings = FetchSettings {
            connect_timeout_secs: 5,
            timeout_secs: 20,
            max_redirects: 5,
            max_body_bytes: 1 << 20,
            user_agent: "tcx-test".into(),
            allow_private_networks: false,
        };
        assert!(Fetcher::new(&settings).is_ok());
        let bad = FetchSettings {
            user_agent: "bad\nagent".into(),
            ..settings
        };
        assert_eq!(Fetcher::new(&bad).unwrap_err().kind(), "client");
    }
}
