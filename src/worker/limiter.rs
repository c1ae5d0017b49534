//! Per-host politeness: at most `per_host_limit` concurrent requests to one host.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Hands out permits per host name. Hosts without holders are forgotten, so the map stays as
/// small as the set of hosts currently being fetched.
#[derive(Debug)]
pub struct HostLimiter {
    per_host: usize,
    hosts: Mutex<HashMap<String, Arc<Semaphore>>>,
}

/// A permit for one request to a host; released when dropped.
#[derive(Debug)]
pub struct HostPermit {
    _permit: Option<OwnedSemaphorePermit>,
}

impl HostLimiter {
    /// A limiter allowing `per_host` (at least 1) concurrent requests per host.
    pub fn new(per_host: usize) -> HostLimiter {
        HostLimiter {
            per_host: per_host.max(1),
            hosts: Mutex::new(HashMap::new()),
        }
    }

    /// Waits for a permit for the host of `url`. URLs without a host (they fail later in the
    /// fetcher) get a permit at once.
    pub async fn acquire(&self, url: &str) -> HostPermit {
        let Some(host) = url::Url::parse(url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
        else {
            return HostPermit { _permit: None };
        };
        let semaphore = {
            let Ok(mut hosts) = self.hosts.lock() else {
                return HostPermit { _permit: None };
            };
            // Forget hosts nobody holds or waits for (only the map's reference is left).
            if hosts.len() > 1024 {
                hosts.retain(|_, s| Arc::strong_count(s) > 1);
            }
            Arc::clone(
                hosts
                    .entry(host)
                    .or_insert_with(|| Arc::new(Semaphore::new(self.per_host))),
            )
        };
        HostPermit {
            _permit: semaphore.acquire_owned().await.ok(),
        }
    }

    /// Number of hosts currently tracked.
    pub fn tracked_hosts(&self) -> usize {
        self.hosts.lock().map(|h| h.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn limits_per_host_not_globally() {
        let limiter = Arc::new(HostLimiter::new(1));
        let a = limiter.acquire("http://a.example/x").await;
        // Another host is not blocked.
        let _b = tokio::time::timeout(
            Duration::from_millis(100),
            limiter.acquire("http://b.example/"),
        )
        .await
        .expect("other host");
        // The same host waits until the first permit is dropped.
        let l2 = Arc::clone(&limiter);
        let waiter = tokio::spawn(async move { l2.acquire("http://A.example/y").await });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiter.is_finished());
        drop(a);
        tokio::time::timeout(Duration::from_secs(1), waiter)
            .await
            .expect("released")
            .expect("join");
        let _ = limiter.acquire("not a url").await;
        assert_eq!(limiter.tracked_hosts(), 2);
    }
}
