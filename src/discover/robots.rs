//! robots.txt (RFC 9309) for discovery: fetched once per origin and cached for
//! `discovery.robots_cache_secs`.
//!
//! What an answer means (RFC 9309 §2.3.1):
//! - 2xx: the file's rules for our product token (the user agent up to its first `/`);
//! - 4xx (no file): everything is allowed;
//! - 5xx, a network error or no answer within `discovery.robots_timeout_secs`: the origin is
//!   treated as disallowing everything, for this cache period — a site that cannot say what it
//!   allows is not crawled;
//! - too many redirects: everything is allowed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use robotxt::{AccessResult, Robots};
use url::Url;

use crate::fetch::{Fetcher, RobotsAnswer};

/// Most origins kept; the cache is cleared when full (a crawl moves on from shops it is done
/// with, and a refetch is cheap).
const MAX_ORIGINS: usize = 10_000;

/// What robots.txt decided for one URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RobotsVerdict {
    /// The URL may be fetched.
    Allowed,
    /// The file disallows the URL for our user agent.
    Disallowed,
    /// The file could not be read (5xx, network error, timeout): nothing on the origin is
    /// fetched.
    Unreachable,
}

#[derive(Debug)]
struct Entry {
    robots: Arc<Robots>,
    unreachable: bool,
    fetched: Instant,
}

/// A per-origin cache of parsed robots.txt files.
#[derive(Debug)]
pub struct RobotsCache {
    agent: String,
    ttl: Duration,
    timeout: Duration,
    entries: Mutex<HashMap<String, Entry>>,
}

impl RobotsCache {
    /// A cache answering for `user_agent`'s product token.
    pub fn new(user_agent: &str, ttl: Duration, timeout: Duration) -> RobotsCache {
        RobotsCache {
            agent: product_token(user_agent),
            ttl,
            timeout,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The product token rules are matched against.
    pub fn agent(&self) -> &str {
        &self.agent
    }

    /// Whether `url` may be fetched; reads the origin's robots.txt on first use.
    pub async fn check(&self, fetcher: &Fetcher, url: &Url) -> RobotsVerdict {
        let origin = url.origin().ascii_serialization();
        let cached = self.lookup(&origin);
        let (robots, unreachable) = match cached {
            Some(found) => found,
            None => {
                let (robots, unreachable) = self.load(fetcher, url).await;
                let robots = Arc::new(robots);
                self.store(origin, Arc::clone(&robots), unreachable);
                (robots, unreachable)
            }
        };
        if robots.is_url_allowed(url) {
            RobotsVerdict::Allowed
        } else if unreachable {
            RobotsVerdict::Unreachable
        } else {
            RobotsVerdict::Disallowed
        }
    }

    fn lookup(&self, origin: &str) -> Option<(Arc<Robots>, bool)> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries
            .get(origin)
            .filter(|e| e.fetched.elapsed() < self.ttl)
            .map(|e| (Arc::clone(&e.robots), e.unreachable))
    }

    fn store(&self, origin: String, robots: Arc<Robots>, unreachable: bool) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_ORIGINS {
            entries.clear();
        }
        entries.insert(
            origin,
            Entry {
                robots,
                unreachable,
                fetched: Instant::now(),
            },
        );
    }

    async fn load(&self, fetcher: &Fetcher, url: &Url) -> (Robots, bool) {
        let Ok(robots_url) = url.join("/robots.txt") else {
            return (Robots::allow_all(), false);
        };
        let answer = tokio::time::timeout(self.timeout, fetcher.fetch_robots(robots_url.as_str()))
            .await
            .unwrap_or(RobotsAnswer::Unreachable);
        let agent = self.agent.as_str();
        match answer {
            RobotsAnswer::File(body) => (
                Robots::from_access(AccessResult::Successful(&body), agent),
                false,
            ),
            RobotsAnswer::Unavailable => {
                (Robots::from_access(AccessResult::Unavailable, agent), false)
            }
            RobotsAnswer::TooManyRedirects => (
                Robots::from_access(AccessResult::TooManyRedirects, agent),
                false,
            ),
            RobotsAnswer::Unreachable => {
                (Robots::from_access(AccessResult::Unreachable, agent), true)
            }
        }
    }
}

/// The product token of a user agent: `tcx` for `tcx/0.1 (+https://…)`, lower case.
pub fn product_token(user_agent: &str) -> String {
    user_agent
        .split(['/', ' '])
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_tokens() {
        assert_eq!(product_token("tcx/0.1 (+https://x)"), "tcx");
        assert_eq!(product_token("MyCrawler"), "mycrawler");
    }

    #[test]
    fn rules_for_our_token_and_the_star_group() {
        let txt = b"User-agent: *\nDisallow: /private\n\nUser-agent: tcx\nDisallow: /impressum\n";
        let ours = Robots::parse(txt, "tcx");
        assert!(!ours.is_allowed("/impressum"));
        assert!(ours.is_allowed("/private"));
        let other = Robots::parse(txt, "otherbot");
        assert!(!other.is_allowed("/private"));
        assert!(other.is_allowed("/impressum"));
    }
}
