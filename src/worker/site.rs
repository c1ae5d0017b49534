//! Site jobs on the pipeline: fetch a shop's start page (robots.txt and the per-host limit
//! apply), find its legal links, and turn them into page jobs — shared by `tcx worker`
//! (which publishes the page jobs), `tcx batch` (which runs them in-process) and
//! `tcx discover` (which prints them).

use std::time::SystemTime;

use url::Url;

use crate::discover::{
    DiscoveryError, FoundLink, LinkAction, RobotsVerdict, SiteScope, legal_links,
    registrable_domain,
};
use crate::fetch::{FetchError, FetchedPage};
use crate::job::{FoundBy, Job, MAX_JOB_ID_LEN, SiteResult, url_job_id};
use crate::source::rfc3339;
use crate::worker::pipeline::Pipeline;
use tcx_core::{ErrorInfo, Status};

/// What discovery found from one start page.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteDiscovery {
    /// The start page's URL after redirects.
    pub final_url: String,
    /// The legal links, with what becomes of each.
    pub links: Vec<FoundLink>,
}

/// What a site job gave: its result, the page jobs to run, and whether to retry it.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteOutcome {
    /// The site result (ok, or an error with its kind).
    pub result: SiteResult,
    /// Page jobs for the legal pages found (empty on error).
    pub page_jobs: Vec<Job>,
    /// The error kind of an error result.
    pub error_kind: Option<String>,
    /// Whether the failure is transient.
    pub retryable: bool,
}

impl Pipeline {
    /// Finds the legal pages of the shop at `shop_url`: robots.txt, the start page, its legal
    /// links (robots.txt applied to each). Returns them with the start page, whose HTML the
    /// page job of a link to the start page itself reuses.
    pub async fn discover(
        &self,
        shop_url: &str,
    ) -> Result<(SiteDiscovery, FetchedPage), DiscoveryError> {
        let start = Url::parse(shop_url.trim())
            .map_err(|e| DiscoveryError::Fetch(FetchError::InvalidUrl(e.to_string())))?;
        match self.robots_verdict(&start).await {
            RobotsVerdict::Allowed => {}
            RobotsVerdict::Disallowed => {
                return Err(DiscoveryError::RobotsDisallowed(origin(&start)));
            }
            RobotsVerdict::Unreachable => {
                return Err(DiscoveryError::RobotsUnreachable(origin(&start)));
            }
        }
        let page = self.fetch_politely(start.as_str()).await?;
        self.metrics().fetched_bytes.inc_by(page.bytes as u64);
        let final_url = Url::parse(&page.final_url).unwrap_or_else(|_| start.clone());
        if registrable_domain(&final_url) != registrable_domain(&start) {
            return Err(DiscoveryError::OffSiteRedirect(final_url.into()));
        }
        let links = self.legal_links_of(&page.html, &final_url).await;
        if links.is_empty() {
            return Err(DiscoveryError::NoLegalPages(final_url.into()));
        }
        Ok((
            SiteDiscovery {
                final_url: final_url.into(),
                links,
            },
            page,
        ))
    }

    /// The legal links of a page already fetched, robots.txt applied and counted in the
    /// metrics.
    pub async fn legal_links_of(&self, html: &str, page_url: &Url) -> Vec<FoundLink> {
        let Some(scope) = SiteScope::of(page_url, &self.discovery.external_hosts) else {
            return Vec::new();
        };
        let mut links = legal_links(html, page_url, &scope, self.discovery.max_pages);
        for link in &mut links {
            if link.action != LinkAction::Enqueued || link.is_start_page {
                continue;
            }
            let Ok(url) = Url::parse(&link.url) else {
                continue;
            };
            match self.robots_verdict(&url).await {
                RobotsVerdict::Allowed => {}
                RobotsVerdict::Disallowed => link.action = LinkAction::RobotsDisallowed,
                RobotsVerdict::Unreachable => link.action = LinkAction::RobotsUnreachable,
            }
        }
        for link in &links {
            self.metrics()
                .discovered_pages
                .with_label_values(&[link.document_type.name(), action_name(link.action)])
                .inc();
        }
        links
    }

    /// robots.txt's verdict for `url` (always allowed when `discovery.respect_robots` is off),
    /// counted in the metrics when it refuses. The robots.txt request counts against the
    /// host's politeness limit.
    async fn robots_verdict(&self, url: &Url) -> RobotsVerdict {
        if !self.discovery.respect_robots {
            return RobotsVerdict::Allowed;
        }
        let verdict = {
            let _permit = self.limiter().acquire(url.as_str()).await;
            self.robots.check(self.fetcher(), url).await
        };
        match verdict {
            RobotsVerdict::Allowed => {}
            RobotsVerdict::Disallowed => self
                .metrics()
                .robots_refusals
                .with_label_values(&["disallowed"])
                .inc(),
            RobotsVerdict::Unreachable => self
                .metrics()
                .robots_refusals
                .with_label_values(&["unreachable"])
                .inc(),
        }
        verdict
    }

    /// Runs a site job: discovery, then the page jobs and the site result.
    pub async fn process_site(&self, job: &Job, attempt: u32) -> SiteOutcome {
        let shop_url = job.shop_url.clone().unwrap_or_default();
        let discovered = self.discover(&shop_url).await;
        let extracted_at = rfc3339(SystemTime::now());
        match discovered {
            Ok((found, start)) => {
                let page_jobs = page_jobs(job, &found.links, &found.final_url, &start.html);
                SiteOutcome {
                    result: SiteResult {
                        result_type: "site".into(),
                        job_id: job.job_id.clone(),
                        status: Status::Ok,
                        shop_url,
                        final_url: Some(found.final_url),
                        pages_enqueued: page_jobs.len(),
                        pages: found.links,
                        error: None,
                        extracted_at,
                        attempt,
                    },
                    page_jobs,
                    error_kind: None,
                    retryable: false,
                }
            }
            Err(e) => SiteOutcome {
                result: SiteResult {
                    result_type: "site".into(),
                    job_id: job.job_id.clone(),
                    status: Status::Error,
                    shop_url,
                    final_url: None,
                    pages: Vec::new(),
                    pages_enqueued: 0,
                    error: Some(ErrorInfo::new(e.kind(), e.to_string(), e.retryable())),
                    extracted_at,
                    attempt,
                },
                page_jobs: Vec::new(),
                error_kind: Some(e.kind().to_owned()),
                retryable: e.retryable(),
            },
        }
    }
}

/// Counts a finished site job (after its last try).
pub fn count_site_job(pipeline: &Pipeline, outcome: &SiteOutcome) {
    pipeline
        .metrics()
        .site_jobs
        .with_label_values(&[outcome.error_kind.as_deref().unwrap_or("ok")])
        .inc();
}

/// The page jobs for the enqueued links of `parent` (a site job, or a page job following its
/// legal links). Ids are `<parent id>/<hash of the URL>`, so a redelivered site job makes the
/// same ids again (consumers de-duplicate by `job_id`). A link to the page itself carries that
/// page's HTML, so it is not fetched a second time.
pub fn page_jobs(parent: &Job, links: &[FoundLink], page_url: &str, page_html: &str) -> Vec<Job> {
    // Leave room for "/u-" and 16 hex digits.
    let prefix = truncate_at_char(&parent.job_id, MAX_JOB_ID_LEN - 20);
    links
        .iter()
        .filter(|link| link.action == LinkAction::Enqueued)
        .map(|link| {
            let mut job = Job::new(format!("{prefix}/{}", url_job_id(&link.url)), &link.url);
            if link.is_start_page {
                job.html = Some(page_html.to_owned());
            }
            job.shop = parent.shop.clone().or_else(|| parent.shop_url.clone());
            job.lang_hint = parent.lang_hint.clone();
            job.site_job_id = Some(parent.job_id.clone());
            job.found_by = Some(FoundBy {
                text: link.text.clone(),
                url: link.url.clone(),
                page: page_url.to_owned(),
                document_type: link.document_type.name().to_owned(),
            });
            job
        })
        .collect()
}

/// The snake_case name of an action, for metrics.
pub fn action_name(action: LinkAction) -> &'static str {
    match action {
        LinkAction::Enqueued => "enqueued",
        LinkAction::Pdf => "pdf",
        LinkAction::File => "file",
        LinkAction::RobotsDisallowed => "robots_disallowed",
        LinkAction::RobotsUnreachable => "robots_unreachable",
        LinkAction::OverLimit => "over_limit",
    }
}

fn origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

fn truncate_at_char(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use tcx_core::DocumentType;

    fn link(url: &str, action: LinkAction, is_start_page: bool) -> FoundLink {
        FoundLink {
            url: url.into(),
            text: "AGB".into(),
            document_type: DocumentType::Terms,
            evidence: crate::discover::LinkEvidence::Text,
            in_footer: true,
            is_start_page,
            action,
        }
    }

    #[test]
    fn page_jobs_carry_the_site_and_reuse_the_start_page() {
        let mut site = Job::site("s".repeat(300), "https://shop.test/");
        site.lang_hint = Some("de".into());
        let links = vec![
            link("https://shop.test/agb", LinkAction::Enqueued, true),
            link("https://shop.test/x.pdf", LinkAction::Pdf, false),
            link("https://shop.test/datenschutz", LinkAction::Enqueued, false),
            link(
                "https://shop.test/impressum",
                LinkAction::RobotsDisallowed,
                false,
            ),
        ];
        let jobs = page_jobs(&site, &links, "https://shop.test/agb", "<p>start</p>");
        assert_eq!(jobs.len(), 2);
        assert_eq!(jobs[0].html.as_deref(), Some("<p>start</p>"));
        assert_eq!(jobs[1].html, None);
        for job in &jobs {
            job.validate().expect("a valid page job");
            assert!(job.job_id.len() <= MAX_JOB_ID_LEN);
            assert_eq!(job.site_job_id.as_deref(), Some(site.job_id.as_str()));
            assert_eq!(job.shop.as_deref(), Some("https://shop.test/"));
            assert_eq!(job.lang_hint.as_deref(), Some("de"));
            assert_eq!(job.found_by.as_ref().unwrap().document_type, "terms");
        }
        assert_ne!(jobs[0].job_id, jobs[1].job_id);
    }
}
