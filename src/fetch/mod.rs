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

mod guard;
use guard::*;
pub use guard::{AddressClass, AddressGuard, check_redirect, check_url, classify};

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

/// Makes rustls's ring provider the process default (once; a provider installed earlier by
/// the embedding program is kept). TLS for both HTTP and AMQP goes through ring.
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

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
        let hosts = settings.pinned_hosts().map_err(|entry| {
            FetchError::Client(format!("fetch.resolve entry {entry:?} is not host=ip"))
        })?;
        Fetcher::with_hosts(
            settings,
            AddressGuard::new(settings.allow_private_networks),
            &hosts,
        )
    }

    /// Builds a fetcher with an explicit address guard (e.g. with exempt addresses);
    /// `settings.allow_private_networks` is ignored in favour of the guard.
    pub fn with_guard(
        settings: &FetchSettings,
        guard: AddressGuard,
    ) -> Result<Fetcher, FetchError> {
        Fetcher::with_hosts(settings, guard, &[])
    }

    /// Like [`Fetcher::with_guard`], with host names pinned to addresses (as curl's
    /// `--resolve`): a request to `http://shop.test:8080/` connects to the given address on
    /// port 8080 without asking DNS. For tests and staging; pinned hosts bypass the address
    /// guard's resolver, so pin only what you trust.
    pub fn with_hosts(
        settings: &FetchSettings,
        guard: AddressGuard,
        hosts: &[(String, IpAddr)],
    ) -> Result<Fetcher, FetchError> {
        install_crypto_provider();
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
            .deflate(true);
        let client = hosts.iter().fold(client, |builder, (host, ip)| {
            builder.resolve(host, SocketAddr::new(*ip, 0))
        });
        let client = client
            .build()
            .map_err(|e| FetchError::Client(error_chain(&e)))?;
        Ok(Fetcher {
            client,
            guard,
            max_body_bytes: settings.max_body_bytes,
        })
    }

    /// The largest body (after decompression) this fetcher accepts, in bytes; the same
    /// limit applies to local files and standard input ([`crate::source::load`]).
    pub fn max_body_bytes(&self) -> usize {
        self.max_body_bytes
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
        let bytes = body.len();
        let decoded = charset::decode_owned(body, content_type.as_deref(), Some(&final_url));
        Ok(FetchedPage {
            url: url.to_owned(),
            final_url: final_url.into(),
            status: status.as_u16(),
            content_type,
            html: decoded.text,
            encoding: decoded.encoding.name(),
            bytes,
        })
    }
}

/// Largest robots.txt read; the rest is ignored (RFC 9309 asks for at least 500 KiB).
const ROBOTS_MAX_BYTES: usize = 512 * 1024;

/// What fetching a robots.txt gave, in the terms of RFC 9309 §2.3.1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RobotsAnswer {
    /// A 2xx answer: the file (at most 512 KiB of it).
    File(Vec<u8>),
    /// A 4xx answer other than 429: there are no rules.
    Unavailable,
    /// A 5xx or 429 answer, a network error, or a refused address.
    Unreachable,
    /// More redirects than `fetch.max_redirects`.
    TooManyRedirects,
}

impl Fetcher {
    /// Fetches a robots.txt (any content type; redirects followed as for pages).
    pub async fn fetch_robots(&self, url: &str) -> RobotsAnswer {
        let Ok(target) = check_url(url, &self.guard) else {
            return RobotsAnswer::Unreachable;
        };
        let mut response = match self
            .client
            .get(target)
            .header(ACCEPT, "text/plain,*/*;q=0.1")
            .send()
            .await
        {
            Ok(response) => response,
            Err(e) => {
                return match map_reqwest_error(&e) {
                    FetchError::TooManyRedirects => RobotsAnswer::TooManyRedirects,
                    _ => RobotsAnswer::Unreachable,
                };
            }
        };
        let status = response.status();
        if status.is_client_error() && status.as_u16() != 429 {
            return RobotsAnswer::Unavailable;
        }
        if !status.is_success() {
            return RobotsAnswer::Unreachable;
        }
        let mut body = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    let room = ROBOTS_MAX_BYTES - body.len();
                    body.extend_from_slice(&chunk[..chunk.len().min(room)]);
                    if body.len() >= ROBOTS_MAX_BYTES {
                        break;
                    }
                }
                Ok(None) => break,
                Err(_) => return RobotsAnswer::Unreachable,
            }
        }
        RobotsAnswer::File(body)
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
mod tests;
