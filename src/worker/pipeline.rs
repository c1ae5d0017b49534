//! The job pipeline shared by `tcx worker` and `tcx batch`: fetch (or take the inline HTML,
//! or read a local file) → analyse on a bounded blocking pool → [`Document`] with `job_id`.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use tokio::sync::Semaphore;

use crate::config::{DiscoverySettings, Settings, WorkerSettings};
use crate::discover::RobotsCache;
use crate::fetch::{FetchError, FetchedPage, Fetcher};
use crate::job::{Job, ResultMessage};
use crate::source::rfc3339;
use crate::telemetry::Metrics;
use crate::worker::limiter::HostLimiter;
use tcx_core::AnalysisOptions;
use tcx_core::{Document, ErrorInfo, Source};

/// What processing one job gave: the Document to publish (ok or error) and, for errors,
/// whether a retry may help.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The result, with `job_id` and `attempt` set.
    pub result: ResultMessage,
    /// The error kind when the Document is an error.
    pub error_kind: Option<String>,
    /// Whether the failure is transient (timeouts, 5xx, connection errors).
    pub retryable: bool,
    /// Page jobs to publish: the legal links of a page that is not a legal page, when its
    /// job asked for them (`follow_legal_links`).
    pub follow: Vec<Job>,
}

impl Outcome {
    /// `ok` or the error kind, for summaries.
    pub fn label(&self) -> &str {
        self.error_kind.as_deref().unwrap_or("ok")
    }
}

/// The pipeline: an HTTP client, the analysis options, a per-host limiter and a bound on
/// concurrent analyses. Share it behind an `Arc`.
#[derive(Debug)]
pub struct Pipeline {
    fetcher: Fetcher,
    options: Arc<AnalysisOptions>,
    limiter: HostLimiter,
    analysis_slots: Arc<Semaphore>,
    metrics: Arc<Metrics>,
    max_inline_bytes: usize,
    output: tcx_core::OutputOptions,
    pub(crate) discovery: DiscoverySettings,
    pub(crate) robots: RobotsCache,
}

impl Pipeline {
    /// Builds the pipeline from the settings.
    pub fn new(settings: &Settings, metrics: Arc<Metrics>) -> Result<Pipeline, FetchError> {
        let fetcher = Fetcher::new(&settings.fetch)?;
        let mut pipeline = Pipeline::with_fetcher(
            fetcher,
            settings
                .analysis_options()
                .for_output(settings.output.options()),
            &settings.worker,
            metrics,
        );
        pipeline.max_inline_bytes = settings.fetch.max_body_bytes;
        pipeline.output = settings.output.options();
        pipeline.set_discovery(settings.discovery.clone(), &settings.fetch.user_agent);
        Ok(pipeline)
    }

    /// Builds the pipeline around an existing fetcher (e.g. one with an exempt address).
    /// Inline HTML is limited to 10 MiB (`Pipeline::new` uses `fetch.max_body_bytes`).
    pub fn with_fetcher(
        fetcher: Fetcher,
        options: AnalysisOptions,
        worker: &WorkerSettings,
        metrics: Arc<Metrics>,
    ) -> Pipeline {
        let discovery = default_discovery();
        Pipeline {
            fetcher,
            options: Arc::new(options),
            limiter: HostLimiter::new(worker.per_host_limit),
            analysis_slots: Arc::new(Semaphore::new(worker.analysis_threads())),
            metrics,
            max_inline_bytes: 10 * 1024 * 1024,
            output: tcx_core::OutputOptions::default(),
            robots: robots_cache(&discovery, "tcx"),
            discovery,
        }
    }

    /// Sets the discovery settings (site jobs, robots.txt for `user_agent`'s product token).
    pub fn set_discovery(&mut self, discovery: DiscoverySettings, user_agent: &str) {
        self.robots = robots_cache(&discovery, user_agent);
        self.discovery = discovery;
    }

    /// Fetches `url` within the per-host limit, timing the `fetch` stage.
    pub(crate) async fn fetch_politely(&self, url: &str) -> Result<FetchedPage, FetchError> {
        let _permit = self.limiter.acquire(url).await;
        let started = Instant::now();
        let fetched = self.fetcher.fetch(url).await;
        self.metrics.observe_stage("fetch", started.elapsed());
        fetched
    }

    /// The HTTP client.
    pub(crate) fn fetcher(&self) -> &Fetcher {
        &self.fetcher
    }

    /// The per-host politeness limiter.
    pub(crate) fn limiter(&self) -> &HostLimiter {
        &self.limiter
    }

    /// The metrics this pipeline records into.
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    /// Processes one job: the inline HTML if present, else the fetched URL. The inline HTML
    /// is copied (the job stays whole, e.g. for a retry); [`Pipeline::process_inline`] avoids
    /// the copy.
    pub async fn process_job(&self, job: &Job, attempt: u32) -> Outcome {
        self.process_inline(job, job.html.clone(), attempt).await
    }

    /// Processes `job` with `html` as its inline page (`job.html` itself is not read): a
    /// worker takes the page out of the job it parsed, so a waiting job holds one copy of its
    /// page less.
    pub async fn process_inline(&self, job: &Job, html: Option<String>, attempt: u32) -> Outcome {
        let inline = html.is_some();
        let page = match html {
            Some(html) if html.len() > self.max_inline_bytes => Err(FetchError::TooLarge {
                limit: self.max_inline_bytes,
            }),
            Some(html) => {
                let url = job.url.clone();
                Ok(FetchedPage {
                    final_url: url.clone(),
                    url,
                    status: 200,
                    content_type: None,
                    bytes: html.len(),
                    html,
                    encoding: "UTF-8",
                })
            }
            None => self.fetch_politely(&job.url).await,
        };
        let fetched_at = rfc3339(SystemTime::now());
        match page {
            Ok(page) => {
                if !inline {
                    self.metrics.fetched_bytes.inc_by(page.bytes as u64);
                }
                // Read the links before the page moves into the analysis; they are used only
                // if the page is not a legal page.
                let follow = if job.follow_legal_links {
                    let page_url =
                        url::Url::parse(&page.final_url).or_else(|_| url::Url::parse(&job.url));
                    match page_url {
                        Ok(page_url) => {
                            let links = self.legal_links_of(&page.html, &page_url).await;
                            crate::worker::site::page_jobs(
                                job,
                                &links,
                                page_url.as_str(),
                                &page.html,
                            )
                        }
                        Err(_) => Vec::new(),
                    }
                } else {
                    Vec::new()
                };
                let mut outcome = self
                    .analyze_page(job, page, fetched_at, attempt, true)
                    .await;
                if outcome.error_kind.as_deref() == Some(NOT_LEGAL_PAGE) {
                    outcome.follow = follow;
                }
                outcome
            }
            Err(e) => error_outcome(job, attempt, e.kind(), e.to_string(), e.retryable()),
        }
    }

    /// Processes a local `.html`/`.html.gz` file (no fetch). The file is read in the same task
    /// on the blocking pool as its analysis: one hand-off between threads per page.
    pub async fn process_file(&self, job_id: &str, path: &Path, attempt: u32) -> Outcome {
        let url = crate::source::file_url(path);
        let owned = path.to_owned();
        let limit = self.max_inline_bytes;
        let job = Job::new(job_id, url.clone());
        // A local file was chosen by hand: it is analysed whatever it is.
        self.analyze_loaded(&job, attempt, false, move || {
            let bytes = crate::source::read_file(&owned, limit)?;
            let page = crate::source::page_from_vec(bytes, url);
            Ok((page, rfc3339(SystemTime::now())))
        })
        .await
    }

    /// Runs the analysis of a loaded page on the blocking pool, bounded by the analysis
    /// threads.
    async fn analyze_page(
        &self,
        job: &Job,
        page: FetchedPage,
        fetched_at: String,
        attempt: u32,
        refuse_non_legal: bool,
    ) -> Outcome {
        self.analyze_loaded(job, attempt, refuse_non_legal, move || {
            Ok((page, fetched_at))
        })
        .await
    }

    /// Loads a page with `load` (the page and when it was fetched) and analyses it, both in one
    /// task on the blocking pool, bounded by the analysis threads.
    async fn analyze_loaded<F>(
        &self,
        job: &Job,
        attempt: u32,
        refuse_non_legal: bool,
        load: F,
    ) -> Outcome
    where
        F: FnOnce() -> Result<(FetchedPage, String), crate::source::LoadError> + Send + 'static,
    {
        let Ok(_slot) = Arc::clone(&self.analysis_slots).acquire_owned().await else {
            return error_outcome(
                job,
                attempt,
                "internal",
                "analysis pool closed".into(),
                true,
            );
        };
        // A job's language hint decides when the detector is unsure.
        let options = match job.lang_hint.as_deref() {
            Some(hint) => {
                let mut with_hint = AnalysisOptions::clone(&self.options);
                with_hint.lang_hint = Some(hint.to_owned());
                Arc::new(with_hint)
            }
            None => Arc::clone(&self.options),
        };
        let typing = Typing {
            url: job.url.clone(),
            found_by: job.found_by.clone(),
            refuse_non_legal: refuse_non_legal && self.discovery.reject_non_legal_pages,
            output: self.output,
        };
        let started = Instant::now();
        // The Document is built (typed, judged, trimmed to the output) on the blocking pool
        // too: that work is bounded by the analysis threads and keeps the runtime responsive.
        let joined = tokio::task::spawn_blocking(move || {
            let (page, fetched_at) = load()?;
            // The analysis reads no clock; its stage times are measured here, at the edge.
            let mut stages = Vec::with_capacity(tcx_core::Stage::ALL.len());
            let mut last = Instant::now();
            let result = tcx_core::analyze_observed(&page.html, &options, &mut |stage| {
                let now = Instant::now();
                stages.push((stage, now - last));
                last = now;
            });
            Ok((typing.document(result, page.source(fetched_at)), stages))
        })
        .await;
        let (document, error_kind) = match joined {
            Ok(Ok(((document, error_kind, method), stages))) => {
                for (stage, elapsed) in stages {
                    self.metrics.observe_stage(stage.name(), elapsed);
                }
                if let Some(method) = method {
                    self.metrics
                        .content_method
                        .with_label_values(&[method])
                        .inc();
                }
                (document, error_kind)
            }
            Ok(Err(e)) => {
                let e: crate::source::LoadError = e;
                return error_outcome(job, attempt, e.kind(), e.to_string(), false);
            }
            // A panic in the analysis is a bug; report it instead of losing the job.
            Err(e) => (
                Document::from_error(
                    ErrorInfo::new("internal", format!("analysis failed: {e}"), false),
                    Source::new(Some(job.url.clone()), None, None, None),
                    rfc3339(SystemTime::now()),
                ),
                Some("internal".to_owned()),
            ),
        };
        self.metrics.observe_stage("analyze", started.elapsed());
        Outcome {
            result: ResultMessage::for_job(document.with_job_id(&job.job_id), attempt, job),
            error_kind,
            retryable: false,
            follow: Vec::new(),
        }
    }
}

/// What turning an analysis into a job's Document needs to know of the job and the settings
/// (moved with the analysis onto the blocking pool).
struct Typing {
    url: String,
    found_by: Option<crate::job::FoundBy>,
    /// Refuse a page that is not a legal document (a page job, with
    /// `discovery.reject_non_legal_pages` on).
    refuse_non_legal: bool,
    output: tcx_core::OutputOptions,
}

impl Typing {
    /// The Document of an analysis (typed, and refused when it is not a legal page), its error
    /// kind, and the content method when the analysis succeeded.
    fn document(
        &self,
        result: Result<tcx_core::Analysis, tcx_core::AnalyzeError>,
        source: Source,
    ) -> (Document, Option<String>, Option<&'static str>) {
        let extracted_at = rfc3339(SystemTime::now());
        match result {
            Ok(analysis) => {
                let method = analysis.content.method.name();
                let (document, words) =
                    Document::from_analysis_with_vocabulary(analysis, source, extracted_at);
                let (document, error_kind) = self.typed_or_refused(document, &words);
                (document, error_kind, Some(method))
            }
            Err(e) => (
                Document::from_error(
                    ErrorInfo::new(e.kind(), e.to_string(), e.retryable()),
                    source,
                    extracted_at,
                ),
                Some(e.kind().to_owned()),
                None,
            ),
        }
    }

    /// The analysed page's Document with its type read again with the link it was found by,
    /// or — when it is not a legal page and refusing is on — the error result
    /// [`NOT_LEGAL_PAGE`].
    fn typed_or_refused(
        &self,
        mut document: Document,
        words: &tcx_core::TextVocabulary,
    ) -> (Document, Option<String>) {
        if let Some(found) = &self.found_by {
            let hints = tcx_core::TypeHints {
                url: Some(found.url.as_str()),
                link_text: Some(found.text.as_str()),
            };
            if let Some(typed) = tcx_core::classify_document_with(&document, &hints, words) {
                document.document_type = Some(typed);
            }
        }
        // An address that names a legal document ("/agb", "/privacy-policy") is evidence the
        // page's text cannot outweigh: a short imprint is still an imprint.
        let named_by_url = tcx_core::type_of_url(&self.url)
            .is_some_and(|kind| kind != tcx_core::DocumentType::Other);
        if self.refuse_non_legal && !named_by_url {
            let verdict = tcx_core::legal_page_verdict_with(&document, words);
            if !verdict.is_legal {
                let error = ErrorInfo::new(
                    NOT_LEGAL_PAGE,
                    format!(
                        "not a legal page (score {:.2}): {}",
                        verdict.score, verdict.reason
                    ),
                    false,
                );
                let refused =
                    Document::from_error(error, document.source.clone(), document.extracted_at);
                return (refused, Some(NOT_LEGAL_PAGE.to_owned()));
            }
        }
        (document.with_output(self.output), None)
    }
}

/// Error kind of a page job whose page is not a legal document.
pub const NOT_LEGAL_PAGE: &str = "not_legal_page";

/// A robots.txt cache with the discovery settings' lifetime and timeout.
fn robots_cache(discovery: &DiscoverySettings, user_agent: &str) -> RobotsCache {
    RobotsCache::new(
        user_agent,
        Duration::from_secs(discovery.robots_cache_secs),
        Duration::from_secs(discovery.robots_timeout_secs),
    )
}

/// The compiled-in `[discovery]` defaults of `config/default.toml`, for a pipeline built
/// without settings.
fn default_discovery() -> DiscoverySettings {
    Settings::load_with_env(None, Some(std::collections::HashMap::new()))
        .map(|settings| settings.discovery)
        .expect("the compiled-in defaults are valid (tested in config::tests)")
}

/// The error outcome of a job that failed before the analysis.
fn error_outcome(job: &Job, attempt: u32, kind: &str, message: String, retryable: bool) -> Outcome {
    let source = Source::new(Some(job.url.clone()), None, None, None);
    let document = Document::from_error(
        ErrorInfo::new(kind, message, retryable),
        source,
        rfc3339(SystemTime::now()),
    );
    Outcome {
        result: ResultMessage::for_job(document.with_job_id(&job.job_id), attempt, job),
        error_kind: Some(kind.to_owned()),
        retryable,
        follow: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pipeline(extra: &[(&str, &str)]) -> Pipeline {
        let env = extra
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let settings = Settings::load_with_env(None, Some(env)).unwrap();
        Pipeline::new(&settings, Arc::new(Metrics::new().unwrap())).unwrap()
    }

    #[tokio::test]
    async fn inline_jobs_skip_the_fetch_and_carry_id_and_attempt() {
        let p = pipeline(&[("TCX__FETCH__MAX_BODY_BYTES", "2048")]);
        let mut job = Job::new("j1", "https://shop.example/agb");
        job.html = Some(
            "<html><body><h2>1. Geltung</h2><p>Diese Bedingungen gelten für alle \
             Bestellungen in unserem Shop.</p></body></html>"
                .into(),
        );
        let out = p.process_job(&job, 3).await;
        assert_eq!(out.error_kind, None);
        assert_eq!(out.result.attempt, 3);
        assert_eq!(out.result.document.job_id.as_deref(), Some("j1"));
        // Every analysis stage was timed once.
        for stage in tcx_core::Stage::ALL {
            let h = p.metrics().stage_seconds.with_label_values(&[stage.name()]);
            assert_eq!(h.get_sample_count(), 1, "{}", stage.name());
        }
        job.html = Some("x".repeat(4096));
        let out = p.process_job(&job, 1).await;
        assert_eq!(out.error_kind.as_deref(), Some("too_large"));
        assert!(!out.retryable);
        job.html = Some("%PDF-1.4".into());
        assert_eq!(
            p.process_job(&job, 1).await.error_kind.as_deref(),
            Some("not_html")
        );
    }

    #[tokio::test]
    async fn a_product_page_is_not_a_legal_page_unless_its_address_says_so() {
        let p = pipeline(&[]);
        let html = "<html><head><title>Sommerkleid Blau</title></head><body><nav>Start Shop</nav>\
            <main><h1>Sommerkleid Blau</h1><p>Leichtes Kleid aus Baumwolle, in vier Größen und drei \
            Farben. Jetzt in den Warenkorb legen und schon morgen tragen.</p><p>Farbe: Blau. \
            Material: 100 % Baumwolle. Pflege: Maschinenwäsche bei 30 Grad.</p></main></body></html>";
        let mut job = Job::new("p1", "https://shop.example/kleider/sommerkleid-blau");
        job.html = Some(html.into());
        let out = p.process_job(&job, 1).await;
        assert_eq!(out.error_kind.as_deref(), Some(NOT_LEGAL_PAGE));
        assert!(!out.retryable);
        let error = out.result.document.error.expect("an error");
        assert!(
            error.message.contains("not a legal page"),
            "{}",
            error.message
        );
        job.url = "https://shop.example/agb".into();
        assert_eq!(p.process_job(&job, 1).await.error_kind, None);
        let off = pipeline(&[("TCX__DISCOVERY__REJECT_NON_LEGAL_PAGES", "false")]);
        job.url = "https://shop.example/kleider/sommerkleid-blau".into();
        assert_eq!(off.process_job(&job, 1).await.error_kind, None);
    }

    #[tokio::test]
    async fn a_jobs_language_hint_decides_when_detection_is_unsure() {
        let p = pipeline(&[]);
        let mut job = Job::new("h1", "https://shop.example/impressum");
        // Names and numbers only: nothing the detector can be sure about.
        job.html = Some(
            "<html><body><div><p>Max Mustermann GmbH</p><p>Musterweg 1, 12345 Musterstadt</p></div></body></html>".into(),
        );
        let without = p.process_job(&job, 1).await;
        let unsure = without.result.document.language.expect("a guess");
        let other = if unsure.code == "de" { "en" } else { "de" };
        job.lang_hint = Some(other.into());
        let with = p.process_job(&job, 1).await;
        assert_eq!(
            with.result.document.language.expect("a language").code,
            other
        );
    }

    #[tokio::test]
    async fn refused_addresses_are_permanent_errors() {
        let p = pipeline(&[]);
        for url in [
            "http://127.0.0.1/agb",
            "http://10.1.2.3/agb",
            "http://192.168.0.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://[::1]/",
        ] {
            let out = p.process_job(&Job::new("x", url), 1).await;
            assert_eq!(out.error_kind.as_deref(), Some("address_refused"), "{url}");
            assert!(!out.retryable);
            assert_eq!(out.result.document.status, tcx_core::Status::Error, "{url}");
        }
    }
}
